package org.topupbatch.provider;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the error code in a provider answer. The interface does not fix the error shape, so we
 * look where providers put it (docs/provider-client.md, "Error answers"): top-level {@code error_code} or
 * {@code code}, then {@code data.error_code} or {@code data.code}, then an upper-case
 * {@code WORD_WORD} token inside {@code message}.
 */
final class ErrorCodes {

    /** At least two upper-case words joined by underscores, standing alone in the text. */
    private static final Pattern CODE_IN_TEXT = Pattern.compile("(?<![A-Za-z0-9_])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?![A-Za-z0-9_])");
    /** What a code field may hold; anything else (a sentence, a number) is not taken as a code. */
    private static final Pattern CODE_VALUE = Pattern.compile("[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*");

    private ErrorCodes() {
    }

    /** The code in {@code answer} (an envelope; may be null), or empty when none can be found. */
    static Optional<String> find(JsonNode answer) {
        if (answer == null || !answer.isObject()) {
            return Optional.empty();
        }
        Optional<String> code = field(answer, "error_code").or(() -> field(answer, "code"));
        if (code.isPresent()) {
            return code;
        }
        JsonNode data = answer.get("data");
        if (data != null && data.isObject()) {
            code = field(data, "error_code").or(() -> field(data, "code"));
            if (code.isPresent()) {
                return code;
            }
        }
        JsonNode message = answer.get("message");
        if (message != null && message.isTextual()) {
            return inText(message.asText());
        }
        return Optional.empty();
    }

    /** The first upper-case WORD_WORD token of a free text. */
    static Optional<String> inText(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher m = CODE_IN_TEXT.matcher(text);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    private static Optional<String> field(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value == null || !value.isTextual()) {
            return Optional.empty();
        }
        String text = value.asText().trim();
        // Codes are compared upper case everywhere; a provider sending "duplicate_ref_id" means the same.
        return CODE_VALUE.matcher(text).matches() ? Optional.of(text.toUpperCase(java.util.Locale.ROOT)) : Optional.empty();
    }
}
