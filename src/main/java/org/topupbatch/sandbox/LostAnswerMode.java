package org.topupbatch.sandbox;

import java.util.Locale;

/** How an injected "lost answer" of create-order looks to the client. */
public enum LostAnswerMode {
    /** The connection is closed without any HTTP answer. */
    DROP("drop"),
    /** HTTP 504 with an HTML body, as a gateway in front of the provider would answer. */
    GATEWAY_TIMEOUT("504"),
    /** Either of the two, chosen at random per lost answer. */
    MIXED("mixed");

    private final String wireName;

    LostAnswerMode(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static LostAnswerMode parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        for (LostAnswerMode mode : values()) {
            if (mode.wireName.equals(t)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("expected drop, 504 or mixed");
    }
}
