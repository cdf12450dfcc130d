package org.topupbatch.sandbox;

import java.util.Optional;

/** The operations under /v1, with the final component of their signature. */
enum SandboxOperation {
    CHECK_BALANCE("check-balance", "balance"),
    PRICE_LIST("price-list", "pricelist"),
    CREATE_ORDER("create-order", null),
    ORDER_HISTORY("order-history", "history"),
    PROFILE("profile", "profile"),
    CHECK_ORDER("check-order", null);

    private final String wireName;
    private final String fixedComponent;

    SandboxOperation(String wireName, String fixedComponent) {
        this.wireName = wireName;
        this.fixedComponent = fixedComponent;
    }

    String wireName() {
        return wireName;
    }

    /** The literal word that ends the signed string, or null when the ref_id does. */
    String fixedComponent() {
        return fixedComponent;
    }

    boolean signedWithRefId() {
        return fixedComponent == null;
    }

    static Optional<SandboxOperation> byPath(String path) {
        for (SandboxOperation op : values()) {
            if (path.equals("/v1/" + op.wireName)) {
                return Optional.of(op);
            }
        }
        return Optional.empty();
    }
}
