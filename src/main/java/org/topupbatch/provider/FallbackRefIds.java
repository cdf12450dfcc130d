package org.topupbatch.provider;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The ref_id under which a row goes to its next account after one that proved it took nothing
 * (docs/accounts-and-dialects.md#several-accounts): attempt n (n >= 2) is sent as {@code ORIGINAL-Fn}. A new ref_id,
 * because each attempt is another order, and derived from the original alone, so that a restart
 * finds the same ref_id again and the row's attempts are recognisable in every report and ledger.
 *
 * <p>At most {@link #MAX_LENGTH} characters, the intake's ref_id limit (intake's
 * RowValidator.MAX_REF_ID_LENGTH; intake sits above this package): a longer one keeps the start of
 * ORIGINAL and adds 8 hex digits of ORIGINAL's SHA-256 before the suffix, so two long ref_ids sharing
 * their start stay apart. The suffix uses only letters, digits and '-', so an accepted ref_id stays
 * within the characters intake accepts.
 */
public final class FallbackRefIds {

    public static final int MAX_LENGTH = 50;

    private FallbackRefIds() {
    }

    /** The ref_id of attempt {@code attempt} (2 = the first fallback) of the row whose ref_id is {@code original}. */
    public static String of(String original, int attempt) {
        if (attempt < 2) {
            throw new IllegalArgumentException("attempt " + attempt + ": the first attempt keeps the row's own ref_id");
        }
        if (original == null || original.isEmpty()) {
            throw new IllegalArgumentException("a row without a ref_id is never sent");
        }
        String suffix = "-F" + attempt;
        if (original.length() + suffix.length() <= MAX_LENGTH) {
            return original + suffix;
        }
        String hash = "-" + sha256(original).substring(0, 8);
        return original.substring(0, MAX_LENGTH - hash.length() - suffix.length()) + hash + suffix;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
