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

    /**
     * The number in the international {@code +628…} form when {@code written} is an Indonesian mobile
     * number in one of the forms above (8 to 13 digits after the leading 8); null when it is not one.
     */
    static String international(String written) {
        String national = nationalDigits(written);
        return national.matches("08\\d{7,12}") ? "+62" + national.substring(1) : null;
    }

    static boolean hasSeparators(String written) {
        return written.chars().anyMatch(c -> c == '-' || Character.isWhitespace(c));
    }
}
