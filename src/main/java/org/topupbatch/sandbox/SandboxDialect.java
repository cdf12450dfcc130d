package org.topupbatch.sandbox;

import java.util.Locale;

/**
 * Which provider's interface the sandbox speaks under {@code /v1}: our seed provider's ({@code topup},
 * docs/provider.md) or Digiflazz's buyer API ({@code digiflazz}, docs/digiflazz.md). Both dialects share one
 * account: the same balance, order store, ledger and fault knobs.
 */
public enum SandboxDialect {
    TOPUP("topup"),
    DIGIFLAZZ("digiflazz");

    private final String wireName;

    SandboxDialect(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static SandboxDialect parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (SandboxDialect d : values()) {
            if (d.wireName.equals(t)) {
                return d;
            }
        }
        throw new IllegalArgumentException("expected topup or digiflazz");
    }
}
