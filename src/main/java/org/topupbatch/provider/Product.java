package org.topupbatch.provider;

/** A price-list entry (interface 2.6). {@code available} is the wire field {@code status}. */
public record Product(String sku, String name, String brand, String category, long price,
                      long sellingPrice, boolean available, String description) {
}
