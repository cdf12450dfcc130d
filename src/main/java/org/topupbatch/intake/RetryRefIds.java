package org.topupbatch.intake;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ref_id a retried row is sent under: {@code ORIGINAL-R1}, and on a retry of a retry
 * {@code ORIGINAL-R2}, and so on. A new ref_id, because the provider treats a ref_id it has seen as
 * the same order (a retry under the old one would only look the failed order up again).
 *
 * <p>At most {@link RowValidator#MAX_REF_ID_LENGTH} characters: a longer one keeps the start of
 * ORIGINAL and adds 8 hex digits of ORIGINAL's SHA-256 before the suffix, so that two long ref_ids
 * sharing their start stay apart and the same ORIGINAL always gives the same retry ref_id.
 */
public final class RetryRefIds {

    private static final Pattern RETRIED = Pattern.compile("(.+)-R([1-9][0-9]{0,5})");

    private RetryRefIds() {
    }

    public static String next(String refId) {
        String original = refId;
        int attempt = 1;
        Matcher m = RETRIED.matcher(refId);
        if (m.matches()) {
            original = m.group(1);
            attempt = Integer.parseInt(m.group(2)) + 1;
        }
        String suffix = "-R" + attempt;
        if (original.length() + suffix.length() <= RowValidator.MAX_REF_ID_LENGTH) {
            return original + suffix;
        }
        String hash = "-" + sha256(original).substring(0, 8);
        return original.substring(0, RowValidator.MAX_REF_ID_LENGTH - hash.length() - suffix.length()) + hash + suffix;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
