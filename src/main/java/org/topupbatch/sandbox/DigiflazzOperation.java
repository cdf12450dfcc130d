package org.topupbatch.sandbox;

import java.util.Optional;

/**
 * The Digiflazz buyer endpoints the sandbox serves, with what ends their {@code sign} and the operation of the
 * seed dialect they are counted as in {@code /sandbox/stats}.
 */
enum DigiflazzOperation {
    /** https://developer.digiflazz.com/api/buyer/cek-saldo */
    CEK_SALDO("cek-saldo", "depo", SandboxOperation.CHECK_BALANCE),
    /** https://developer.digiflazz.com/api/buyer/daftar-harga/ */
    PRICE_LIST("price-list", "pricelist", SandboxOperation.PRICE_LIST),
    /** https://developer.digiflazz.com/api/buyer/topup/ (also the status check, by the same ref_id) */
    TRANSACTION("transaction", null, SandboxOperation.CREATE_ORDER);

    private final String path;
    private final String fixedComponent;
    private final SandboxOperation countedAs;

    DigiflazzOperation(String path, String fixedComponent, SandboxOperation countedAs) {
        this.path = path;
        this.fixedComponent = fixedComponent;
        this.countedAs = countedAs;
    }

    /** The literal word that ends the signed string, or null when the ref_id does. */
    String fixedComponent() {
        return fixedComponent;
    }

    SandboxOperation countedAs() {
        return countedAs;
    }

    static Optional<DigiflazzOperation> byPath(String path) {
        for (DigiflazzOperation op : values()) {
            if (path.equals("/v1/" + op.path)) {
                return Optional.of(op);
            }
        }
        return Optional.empty();
    }
}
