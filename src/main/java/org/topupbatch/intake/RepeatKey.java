package org.topupbatch.intake;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Whom a row orders for, as the repeat guard compares it (docs/batch-files-and-reports.md#rejected-rows, topup.repeat-window):
 * product_sku, customer_no and customer_no_zone in one string.
 *
 * <p>Only what is certainly the same customer is made equal: a customer_no of a product whose
 * customer rule is a phone number ({@code phone: true}) is compared in its national 08… form without
 * spaces or dashes ({@link MobileNumber}: 0812…, 62812… and +62812… alike); every other customer_no
 * (game ids, meter numbers) and the zone are compared exactly as written, trimmed: a game id
 * 62812… and 0812… may be two players, and case may matter to a game, so none is folded. The
 * separator is a control character, which no customer field may hold (they are rejected), so two
 * different rows never make one key. A key longer than {@link #MAX} (the journal's column) is
 * replaced by its SHA-256.
 */
final class RepeatKey {

    static final int MAX = 400;
    private static final char SEPARATOR = '\u001F';

    private RepeatKey() {
    }

    static String of(String productSku, String customerNo, String zone, boolean phone) {
        String customer = phone ? MobileNumber.nationalDigits(customerNo) : customerNo;
        String key = productSku + SEPARATOR + customer + SEPARATOR + (zone == null ? "" : zone);
        return key.length() <= MAX ? key : "sha256:" + sha256(key);
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** allow_repeat says yes: {@code yes}, {@code true} or {@code 1}, any case, surrounding spaces ignored. */
    static boolean allowed(String allowRepeat) {
        if (allowRepeat == null) {
            return false;
        }
        String v = allowRepeat.trim().toLowerCase(Locale.ROOT);
        return v.equals("yes") || v.equals("true") || v.equals("1");
    }
}
