package org.topupbatch.batch;

import java.util.List;
import java.util.regex.Pattern;

/**
 * What one field (customer_no or customer_no_zone) must look like: the whole value matches
 * {@code pattern}, is one of {@code values} when some are given, and starts with one of
 * {@code prefixes} when some are given. {@code example} may be null.
 */
public record FieldRule(Pattern pattern, List<String> values, List<String> prefixes, String description,
                        String example) {

    public FieldRule {
        values = List.copyOf(values);
        prefixes = List.copyOf(prefixes);
    }

    public boolean accepts(String value) {
        return pattern.matcher(value).matches()
                && (values.isEmpty() || values.contains(value))
                && (prefixes.isEmpty() || prefixes.stream().anyMatch(value::startsWith));
    }

    /** "a mobile number of 10 to 13 digits starting with 0811, 0812, e.g. 081234567890". */
    public String expectation() {
        StringBuilder s = new StringBuilder(description);
        if (!prefixes.isEmpty()) {
            s.append(" starting with ").append(String.join(", ", prefixes));
        }
        if (example != null) {
            s.append(", e.g. ").append(example);
        }
        return s.toString();
    }
}
