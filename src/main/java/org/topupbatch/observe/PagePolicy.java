package org.topupbatch.observe;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Content-Security-Policy of a page served whole from one template (the dashboard): its own
 * inline scripts and styles are allowed by their SHA-256 hashes, nothing else runs or loads, it
 * talks to its own origin only and no other site may frame it. A {@code <script type="application/json">}
 * block is data, never run, and needs no hash: the page's changing data goes there, so the hashes
 * of the template's code hold for every answer.
 */
final class PagePolicy {

    private static final Pattern SCRIPT = Pattern.compile("<script>(.*?)</script>", Pattern.DOTALL);
    private static final Pattern STYLE = Pattern.compile("<style>(.*?)</style>", Pattern.DOTALL);

    private PagePolicy() {
    }

    /** The policy for pages made from {@code template}. */
    static String of(String template) {
        return "default-src 'none'; script-src " + hashes(SCRIPT, template) + "; style-src " + hashes(STYLE, template)
                + "; connect-src 'self'; img-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";
    }

    private static String hashes(Pattern element, String template) {
        List<String> each = new ArrayList<>();
        Matcher m = element.matcher(template);
        while (m.find()) {
            each.add("'sha256-" + sha256(m.group(1)) + "'");
        }
        return each.isEmpty() ? "'none'" : String.join(" ", each);
    }

    private static String sha256(String text) {
        try {
            return Base64.getEncoder().encodeToString(
                    MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
