package org.topupbatch.intake;

import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.dhatim.fastexcel.reader.Cell;
import org.dhatim.fastexcel.reader.ExcelReaderException;
import org.dhatim.fastexcel.reader.ReadableWorkbook;
import org.dhatim.fastexcel.reader.ReadingOptions;
import org.dhatim.fastexcel.reader.Row;

/**
 * An Excel workbook ({@code .xlsx}) as the batch it holds: its first sheet, read as a stream
 * (fastexcel-reader, so memory stays flat), written out as UTF-8 CSV that the CSV intake then reads
 * with all its checks. Each cell becomes what a person sees in it: text stays text, a number cell is
 * written as Excel's "General" format shows it (whole numbers up to 11 digits as they are, longer
 * ones as {@code 6.28123E+12}). So a phone number or ID that the spreadsheet turned into a number
 * (its leading zero lost, or its digits rounded away) reaches the checks exactly as damaged as it
 * is, and is reported as for a CSV file, never repaired. Row numbers are kept: line N of the report
 * is row N of the sheet.
 */
public final class WorkbookText {

    private WorkbookText() {
    }

    public static boolean isWorkbook(Path file) {
        return file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".xlsx");
    }

    /** Writes the first sheet of {@code xlsx} into {@code csv}. */
    public static void toCsv(Path xlsx, Path csv) throws IOException {
        // from the file, not a stream: fastexcel-reader would copy a stream into memory whole
        try (ReadableWorkbook workbook = new ReadableWorkbook(xlsx.toFile(), new ReadingOptions(true, false));
             Writer writer = Files.newBufferedWriter(csv, StandardCharsets.UTF_8);
             CSVPrinter out = new CSVPrinter(writer, CSVFormat.RFC4180.builder().setRecordSeparator("\n").get())) {
            writer.write('\uFEFF'); // UTF-8 whatever topup.input-charset says: the mark decides
            try (Stream<Row> rows = workbook.getFirstSheet().openStream()) {
                Iterator<Row> it = rows.iterator();
                int next = 1;
                int width = -1;
                while (it.hasNext()) {
                    Row row = it.next();
                    for (; next < row.getRowNum(); next++) {
                        out.println(); // an empty row of the sheet: an empty line, so line numbers stay the sheet's
                    }
                    int cells = lastUsed(row) + 1;
                    if (width < 0) {
                        width = cells; // the header row
                    }
                    for (int c = 0; c < Math.max(cells, 0); c++) {
                        out.print(shown(row.getCell(c)));
                    }
                    out.println();
                    next = row.getRowNum() + 1;
                }
            }
        } catch (ExcelReaderException | IllegalStateException | java.util.NoSuchElementException
                 | java.io.UncheckedIOException | NumberFormatException e) {
            throw new UnreadableBatchException("not an Excel workbook (.xlsx) that can be read: "
                    + org.topupbatch.text.OneLine.of(String.valueOf(e.getMessage()), 300), e);
        } catch (IOException e) {
            if (Files.isReadable(xlsx) && Files.isWritable(csv.getParent())) {
                // the file is there and readable: what failed is its content
                throw new UnreadableBatchException("not an Excel workbook (.xlsx) that can be read: "
                        + org.topupbatch.text.OneLine.of(String.valueOf(e.getMessage()), 300), e);
            }
            throw e;
        }
    }

    private static int lastUsed(Row row) {
        int last = -1;
        for (int c = 0; c < row.getCellCount(); c++) {
            Cell cell = row.getCell(c);
            if (cell != null && !shown(cell).isEmpty()) {
                last = c;
            }
        }
        return last;
    }

    /** The cell's text as a person sees it in the sheet. */
    static String shown(Cell cell) {
        if (cell == null || cell.getType() == null) {
            return "";
        }
        switch (cell.getType()) {
            case NUMBER:
                return number(cell.asNumber(), cell.getDataFormatString());
            case BOOLEAN:
                return Boolean.TRUE.equals(cell.asBoolean()) ? "TRUE" : "FALSE";
            case FORMULA:
                Object value = cell.getValue();
                return value instanceof BigDecimal n ? number(n, cell.getDataFormatString())
                        : cell.getRawValue() == null ? "" : cell.getRawValue();
            case EMPTY:
                return "";
            default:
                // a line break typed in a cell (Alt+Enter) would move every later row's line number
                return cell.getText() == null ? "" : cell.getText().replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ');
        }
    }

    /** A number as Excel shows it: in "General", or as a whole number for the format {@code 0}. */
    static String number(BigDecimal n, String format) {
        if (n == null) {
            return "";
        }
        BigDecimal s = n.stripTrailingZeros();
        if ("0".equals(format) && s.scale() <= 0) {
            return s.toBigInteger().toString();
        }
        if (s.scale() <= 0) {
            String digits = s.toBigInteger().abs().toString();
            return digits.length() <= 11 ? s.toBigInteger().toString() : scientific(s);
        }
        BigDecimal r = s.round(new MathContext(10)).stripTrailingZeros();
        return r.abs().compareTo(new BigDecimal("1E11")) >= 0 ? scientific(r) : r.toPlainString();
    }

    /** Six significant digits and a signed two-digit exponent, as Excel's General shows a long number: 6.28123E+12. */
    private static String scientific(BigDecimal n) {
        BigDecimal r = n.round(new MathContext(6)).stripTrailingZeros();
        String digits = r.unscaledValue().abs().toString();
        int exponent = digits.length() - 1 - r.scale();
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        return (r.signum() < 0 ? "-" : "") + mantissa + "E" + (exponent < 0 ? "-" : "+")
                + String.format(Locale.ROOT, "%02d", Math.abs(exponent));
    }
}
