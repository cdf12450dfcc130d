package org.topupbatch.intake;

import java.util.List;
import java.util.regex.Pattern;

/**
 * What one field (customer_no or customer_no_zone) may look like. {@code pattern} is a certainty:
 * no real customer has a value outside it. {@code values} (compared without regard to case) and
 * {@code prefixes} are what is usual; a value outside them may still be real (operators open new
 * number ranges, players write server names their own way), so they reject only for a strict brand.
 * {@code phone} marks an Indonesian mobile number: prefixes are then compared on its 08… form, and
 * a number that lost its leading 0 is recognised. {@code example} may be null.
 */
public record FieldRule(Pattern pattern, List<String> values, List<String> prefixes, String description,
                        String example, boolean phone) {

    public FieldRule {
        values = List.copyOf(values);
        prefixes = List.copyOf(prefixes);
    }

    /** Whether some real customer could have written this value. */
    public boolean fits(String value) {
        return pattern.matcher(value).matches();
    }

    public boolean isUsualValue(String value) {
        return values.isEmpty() || values.stream().anyMatch(value::equalsIgnoreCase);
    }

    public boolean hasUsualPrefix(String value) {
        String compared = phone ? MobileNumber.nationalDigits(value) : value;
        return prefixes.isEmpty() || prefixes.stream().anyMatch(compared::startsWith);
    }

    /** "a user ID of 5 to 12 digits, e.g. 123456789". */
    public String expectation() {
        return example == null ? description : description + ", e.g. " + example;
    }
}
