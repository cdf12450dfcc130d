package org.topupbatch.text;

/** Rupiah as Indonesians write them: {@code Rp 1.234.500} (dot between thousands, no decimals). */
public final class Rupiah {

    private Rupiah() {
    }

    public static String format(long amount) {
        String digits = Long.toString(Math.abs(amount));
        StringBuilder grouped = new StringBuilder();
        for (int i = 0; i < digits.length(); i++) {
            if (i > 0 && (digits.length() - i) % 3 == 0) {
                grouped.append('.');
            }
            grouped.append(digits.charAt(i));
        }
        return (amount < 0 ? "-Rp " : "Rp ") + grouped;
    }
}
