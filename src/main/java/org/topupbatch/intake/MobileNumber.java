package org.topupbatch.intake;

/**
 * Reads an Indonesian mobile number as people write it (08…, 628…, +628…, with spaces or dashes)
 * for comparisons only: what is sent to the provider is always the value as written.
 */
final class MobileNumber {

    private MobileNumber() {
    }

    /** The digits in the national 08… form: "+62 812-3456" gives "08123456". */
    static String nationalDigits(String written) {
        String digits = written.replaceAll("[\\s-]", "");
        if (digits.startsWith("+62")) {
            return "0" + digits.substring(3);
        }
        if (digits.startsWith("62")) {
            return "0" + digits.substring(2);
        }
        return digits;
    }

    static boolean hasSeparators(String written) {
        return written.chars().anyMatch(c -> c == '-' || Character.isWhitespace(c));
    }
}
