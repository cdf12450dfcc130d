package org.topupbatch.report;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.Consumer;
import org.dhatim.fastexcel.Workbook;
import org.dhatim.fastexcel.Worksheet;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.RowRecord;

/**
 * A batch's result as an Excel workbook ({@code NAME.result.xlsx}, {@code topup.report.formats}):
 * the same columns and rows as the result CSV, written as a stream (fastexcel). Every cell is a text
 * cell but {@code line} and {@code price}, which are numbers: a text cell never runs as a formula,
 * so values are written as they are, without the CSV's leading {@code '}.
 */
final class ResultWorkbook {

    private ResultWorkbook() {
    }

    static void write(BatchRecord batch, Consumer<Consumer<RowRecord>> rows, OutputStream out) throws IOException {
        write(batch, rows, false, out);
    }

    /** {@code accounts}: several accounts, so the columns provider and provider_ref_id follow message, as in the CSV. */
    static void write(BatchRecord batch, Consumer<Consumer<RowRecord>> rows, boolean accounts, OutputStream out) throws IOException {
        write(batch, rows, accounts, java.util.Map.of(), out);
    }

    /** {@code notices}: each row's customer_notified by row id; when there are any, the column follows as in the CSV. */
    static void write(BatchRecord batch, Consumer<Consumer<RowRecord>> rows, boolean accounts,
                      java.util.Map<Long, String> notices, OutputStream out) throws IOException {
        Workbook workbook = new Workbook(out, "topup-batch", "1.0");
        Worksheet sheet = workbook.newWorksheet("Result");
        List<String> extraHeaders = batch.extraHeaders() == null ? List.of() : batch.extraHeaders();
        int c = 0;
        for (String column : ReportWriter.COLUMNS) {
            sheet.value(0, c++, column);
        }
        if (accounts) {
            for (String column : ReportWriter.ACCOUNT_COLUMNS) {
                sheet.value(0, c++, column);
            }
        }
        int customerColumn = notices.isEmpty() ? -1 : c;
        if (customerColumn >= 0) {
            sheet.value(0, c++, ReportWriter.CUSTOMER_COLUMN);
        }
        int firstExtra = c;
        for (String extra : extraHeaders) {
            sheet.value(0, c++, extra);
        }
        int[] r = {1};
        try {
            rows.accept(row -> {
                ReportedRow reported = ReportedRow.of(row, batch.haltReason(), batch.held());
                int i = r[0]++;
                sheet.value(i, 0, row.line());
                text(sheet, i, 1, row.refId());
                text(sheet, i, 2, row.productSku());
                text(sheet, i, 3, row.customerNo());
                text(sheet, i, 4, row.customerNoZone());
                text(sheet, i, 5, reported.status());
                text(sheet, i, 6, row.serialNumber());
                if (reported.price() != null) {
                    sheet.value(i, 7, reported.price());
                }
                text(sheet, i, 8, reported.message());
                if (accounts && row.route() != null && row.state() != org.topupbatch.journal.RowState.REJECTED) {
                    text(sheet, i, 9, row.account());
                    text(sheet, i, 10, row.orderRefId());
                }
                if (customerColumn >= 0) {
                    text(sheet, i, customerColumn, notices.getOrDefault(row.id(), ""));
                }
                List<String> extras = row.extras() == null ? List.of() : row.extras();
                for (int e = 0; e < extraHeaders.size(); e++) {
                    text(sheet, i, firstExtra + e, e < extras.size() ? extras.get(e) : "");
                }
                if (i % 1000 == 0) {
                    try {
                        sheet.flush(); // rows leave memory as they are written
                    } catch (IOException ex) {
                        throw new UncheckedIOException(ex);
                    }
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        workbook.finish();
    }

    private static void text(Worksheet sheet, int row, int col, String value) {
        if (value != null && !value.isEmpty()) {
            sheet.inlineString(row, col, value); // not the shared-string table, which would grow with the batch
        }
    }
}
