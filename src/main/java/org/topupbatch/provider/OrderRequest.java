package org.topupbatch.provider;

/** What create-order sends; {@code customerNoZone} may be null or empty when the product needs none. */
public record OrderRequest(String refId, String productSku, String customerNo, String customerNoZone, Long maxPrice) {

    /**
     * {@code maxPrice}: the most the order may cost, for dialects that let the provider refuse a
     * dearer one (Digiflazz's {@code max_price}); null when the row sets no limit.
     */
    public OrderRequest {
    }

    public OrderRequest(String refId, String productSku, String customerNo, String customerNoZone) {
        this(refId, productSku, customerNo, customerNoZone, null);
    }
}
