package org.topupbatch.report;

/**
 * Keeps a spreadsheet from running a report cell as a formula (CSV injection): a cell that would
 * start with {@code =}, {@code +}, {@code -}, {@code @}, a tab or a carriage return gets a leading
 * {@code '}, which spreadsheets show as text. Applied to every cell that carries input text or a
 * message; not to line, status and price, which the product itself writes as plain numbers/words.
 */
public final class FormulaGuard {
    private FormulaGuard() {
    }

    public static String escape(String cell) {
        if (cell == null || cell.isEmpty()) {
            return cell == null ? "" : cell;
        }
        char c = cell.charAt(0);
        return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r' ? "'" + cell : cell;
    }
}
