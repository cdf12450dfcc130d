package org.topupbatch.sandbox;

/**
 * One catalog product. {@code basicPrice} is the basic-tier price; other tiers pay less
 * ({@link SandboxTier#priceOf}). {@code async} products answer pending and settle later.
 */
record SandboxProduct(String sku, String name, String brand, String category, long basicPrice, long sellingPrice,
                      boolean available, boolean async, String description, CustomerRule rule) {
}
