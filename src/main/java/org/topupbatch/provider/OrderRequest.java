package org.topupbatch.provider;

/** What create-order sends; {@code customerNoZone} may be null or empty when the product needs none. */
public record OrderRequest(String refId, String productSku, String customerNo, String customerNoZone) {
}
