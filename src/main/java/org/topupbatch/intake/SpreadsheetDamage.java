package org.topupbatch.intake;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Recognises customer numbers that a spreadsheet changed before the file was exported. Such a
 * value is rejected with what probably happened, never repaired: the digits a spreadsheet threw
 * away cannot be known, and guessing would order for a number the customer did not write.
 */
final class SpreadsheetDamage {

    // 6.28E+11, 8.1234E+10, 6,28E+11 (a comma in locales that write decimals with one)
    private static final Pattern SCIENTIFIC = Pattern.compile("[0-9]+(?:[.,][0-9]+)?[eE]\\+?[0-9]+");
    // what is left of 08xxxxxxxx (10 to 13 digits) once the leading 0 is gone
    private static final Pattern MOBILE_WITHOUT_ZERO = Pattern.compile("8[0-9]{8,11}");

    private SpreadsheetDamage() {
    }

    /** Why {@code value} looks damaged, or empty when it does not. */
    static Optional<String> explain(String value, FieldRule rule) {
        // the cheap look first: this runs for every row
        if ((value.indexOf('E') >= 0 || value.indexOf('e') >= 0) && SCIENTIFIC.matcher(value).matches()) {
            return Optional.of("customer_no " + value + " looks like a number a spreadsheet turned into scientific"
                    + " notation; format the column as text and export again");
        }
        if (rule.phone() && value.startsWith("8") && MOBILE_WITHOUT_ZERO.matcher(value).matches() && rule.fits("0" + value)) {
            return Optional.of("customer_no " + value + " looks like a phone number whose leading 0 a spreadsheet"
                    + " removed; write it as 0" + value + " or +62" + value);
        }
        return Optional.empty();
    }
}
