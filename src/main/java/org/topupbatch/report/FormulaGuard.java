package org.topupbatch.report;

import java.util.regex.Pattern;

/**
 * Keeps a spreadsheet from running a report cell as a formula (CSV injection): a cell that would
 * start with {@code =}, {@code +}, {@code -}, {@code @}, a tab or a carriage return gets a leading
 * {@code '}, which spreadsheets show as text. Applied to every cell that carries input text or a
 * message; not to line, status and price, which the product itself writes as plain numbers/words.
 *
 * <p>A signed number ({@code +6281234567890}, {@code -5000}, {@code +62 812-3456-7890}) is left as
 * written: it holds no name, reference or quote a formula could run, and customer numbers in the
 * international form are common; an ERP matching the report against its own data needs them intact.
 */
public final class FormulaGuard {
    private static final Pattern SIGNED_NUMBER = Pattern.compile("[+-][0-9][0-9 \\-]*");

    private FormulaGuard() {
    }

    public static String escape(String cell) {
        if (cell == null || cell.isEmpty()) {
            return cell == null ? "" : cell;
        }
        char c = cell.charAt(0);
        boolean risky = c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r';
        return risky && !SIGNED_NUMBER.matcher(cell).matches() ? "'" + cell : cell;
    }
}
