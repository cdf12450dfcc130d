package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.dhatim.fastexcel.Workbook;
import org.dhatim.fastexcel.Worksheet;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;

/**
 * Excel workbooks in the inbox on the built jar (docs/erp-doors.md#excel-workbooks): the first sheet is taken
 * like a CSV file, cells as a person sees them; a phone number that the spreadsheet stored as a
 * number (its leading zero lost, or shown as 6.28123E+12) is rejected as for CSV, never repaired;
 * line numbers are the sheet's rows. {@code plan} reads a workbook too, and a 100,000-row workbook
 * is planned with {@code -Xmx256m}.
 */
class ExcelE2ETest {

    @RegisterExtension
    final ProductFixture product = ProductFixture.on(SandboxConfig::defaults)
            .env("TOPUP_MODE", "once").env("TOPUP_WEBHOOK_PORT", "0");
    final Path home = product.home();
    final SandboxProvider sandbox = product.sandbox();
    final JarRun run = product.run();

    /** A workbook as a shop's spreadsheet saves it: text cells, and number cells where someone typed digits. */
    static void workbook(Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            Workbook wb = new Workbook(out, "topup-batch test", "1.0");
            Worksheet ws = wb.newWorksheet("Orders");
            String[] header = {"ref_id", "product_sku", "customer_no", "customer_no_zone", "note"};
            for (int c = 0; c < header.length; c++) {
                ws.value(0, c, header[c]);
            }
            ws.value(1, 0, "XL-1");
            ws.value(1, 1, "FF100");
            ws.value(1, 2, "31234567");                 // a text cell
            ws.value(2, 0, "XL-2");
            ws.value(2, 1, "TSEL10");
            ws.value(2, 2, "081234567890");             // a phone number kept as text
            ws.value(3, 0, "XL-3");
            ws.value(3, 1, "TSEL10");
            ws.value(3, 2, 81234567890L);               // typed into a number cell: its leading 0 is gone
            ws.value(4, 0, "XL-4");
            ws.value(4, 1, "TSEL10");
            ws.value(4, 2, 6281234567890L);             // shown by Excel as 6.28123E+12
            ws.value(5, 0, "XL-5");
            ws.value(5, 1, "ML86");
            ws.value(5, 2, 123456789);                  // a game ID as a number: what a person sees is what it is
            ws.value(5, 3, 2345);
            ws.value(5, 4, "=1+1 is not a formula here");
            // row 7 of the sheet left empty
            ws.value(7, 0, "XL-6");
            ws.value(7, 1, "FF100");
            ws.value(7, 2, "31234568");
            wb.finish();
        }
    }

    @Test
    void a_workbook_is_taken_like_csv_and_spreadsheet_damage_is_rejected_not_repaired() throws Exception {
        workbook(run.inbox.resolve("shop-orders.xlsx"));
        run.env.put("TOPUP_REPORT_FORMATS", "csv,xlsx");
        assertThat(run.runOnce(Duration.ofMinutes(2))).as(run.output()).isZero();

        Report report = Report.read(run.reports, "shop-orders", ',');
        Map<String, Map<String, String>> byRef = new java.util.HashMap<>();
        report.rows().forEach(r -> byRef.put(r.get("ref_id"), r));
        assertThat(report.rows()).hasSize(6);
        assertThat(byRef.get("XL-1")).containsEntry("status", "success").containsEntry("line", "2");
        assertThat(byRef.get("XL-2")).containsEntry("status", "success").containsEntry("customer_no", "081234567890");
        assertThat(byRef.get("XL-3")).containsEntry("status", "rejected").containsEntry("customer_no", "81234567890");
        assertThat(byRef.get("XL-3").get("message")).contains("leading 0 a spreadsheet removed");
        assertThat(byRef.get("XL-4")).containsEntry("status", "rejected").containsEntry("customer_no", "6.28123E+12");
        assertThat(byRef.get("XL-4").get("message")).contains("scientific notation");
        assertThat(byRef.get("XL-5")).containsEntry("status", "success").containsEntry("customer_no", "123456789")
                .containsEntry("customer_no_zone", "2345").containsEntry("note", "'=1+1 is not a formula here");
        assertThat(byRef.get("XL-6")).as("the sheet's row number, past an empty row").containsEntry("line", "8")
                .containsEntry("status", "success");
        assertThat(sandbox.ledger()).hasSize(4);

        // the result as a workbook too: text cells (no formula can run), line and price as numbers
        try (var result = new org.dhatim.fastexcel.reader.ReadableWorkbook(run.reports.resolve("shop-orders.result.xlsx").toFile())) {
            java.util.List<org.dhatim.fastexcel.reader.Row> rows = result.getFirstSheet().read();
            assertThat(rows).hasSize(7);
            assertThat(rows.get(0).getCellText(0)).isEqualTo("line");
            assertThat(rows.get(0).getCellText(9)).isEqualTo("note");
            org.dhatim.fastexcel.reader.Row xl5 = rows.stream().filter(r -> "XL-5".equals(r.getCellText(1))).findFirst().orElseThrow();
            assertThat(xl5.getCell(0).getType()).isEqualTo(org.dhatim.fastexcel.reader.CellType.NUMBER);
            assertThat(xl5.getCellText(5)).isEqualTo("success");
            assertThat(xl5.getCell(7).getType()).isEqualTo(org.dhatim.fastexcel.reader.CellType.NUMBER);
            assertThat(xl5.getCell(9).getType()).isEqualTo(org.dhatim.fastexcel.reader.CellType.STRING);
            assertThat(xl5.getCellText(9)).isEqualTo("=1+1 is not a formula here");
        }
        try (var archived = Files.list(run.data.resolve("archive"))) {
            assertThat(archived.map(p -> p.getFileName().toString())).singleElement().asString()
                    .startsWith("shop-orders.").endsWith(".xlsx");
        }
    }

    /**
     * The real thing: LibreOffice Calc opens a shop's CSV export and saves it as .xlsx. With the phone
     * column read as "standard", Calc stores 081234567890 as the number 81234567890; with it read as
     * text, the 0 stays. {@code plan} on both workbooks says so.
     */
    @Test
    void a_workbook_saved_by_libreoffice_calc_keeps_or_loses_the_leading_zero_as_its_column_format_says() throws Exception {
        Path csv = home.resolve("export.csv");
        Files.writeString(csv, "ref_id,product_sku,customer_no\nLO-1,TSEL10,081234567890\nLO-2,FF100,31234567\n");
        LibreOffice calc = new LibreOffice(home.resolve("lo-profile"));
        Path standard = calc.workbook(csv, "44,34,76,1,1/2/2/2/3/1", home.resolve("standard"));
        Path text = calc.workbook(csv, LibreOffice.textImport(3), home.resolve("text"));

        Process damaged = run.start("plan", standard.toString());
        assertThat(damaged.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(damaged.exitValue()).as(run.output()).isEqualTo(2);
        assertThat(run.output()).contains("rejected  line 2  ref_id LO-1: customer_no 81234567890 looks like a phone number"
                + " whose leading 0 a spreadsheet removed").contains("Rows:     2 read, 1 acceptable, 1 rejected");

        Process kept = run.start("plan", text.toString());
        assertThat(kept.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(kept.exitValue()).as(run.output()).isZero();
        assertThat(run.output()).contains("Rows:     2 read, 2 acceptable, 0 rejected");
    }

    @Test
    void plan_reads_a_workbook_and_a_100000_row_one_in_256_mb() throws Exception {
        Path small = home.resolve("small.xlsx");
        workbook(small);
        Process p = run.start("plan", small.toString());
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(run.output()).isEqualTo(2);
        assertThat(run.output()).contains("rejected  line 4  ref_id XL-3: customer_no 81234567890 looks like a phone number")
                .contains("rejected  line 5  ref_id XL-4: customer_no 6.28123E+12 looks like a number a spreadsheet turned"
                        + " into scientific notation")
                .contains("Rows:     6 read, 4 acceptable, 2 rejected");

        Path big = home.resolve("big.xlsx");
        try (OutputStream out = Files.newOutputStream(big)) {
            Workbook wb = new Workbook(out, "topup-batch test", "1.0");
            Worksheet ws = wb.newWorksheet("Orders");
            ws.value(0, 0, "ref_id");
            ws.value(0, 1, "product_sku");
            ws.value(0, 2, "customer_no");
            for (int r = 1; r <= 100_000; r++) {
                ws.value(r, 0, "BIG-" + r);
                ws.value(r, 1, "FF100");
                ws.value(r, 2, Integer.toString(30_000_000 + r));
                if (r % 10_000 == 0) {
                    ws.flush(); // the writer's memory flat too
                }
            }
            wb.finish();
        }
        run.jvm.add("-Xmx256m");
        long started = System.nanoTime();
        Process plan = run.start("plan", big.toString());
        assertThat(plan.waitFor(5, TimeUnit.MINUTES)).isTrue();
        System.out.printf("EXCEL: plan of a 100,000-row workbook (%d KB) with -Xmx256m: exit %d in %.1f s%n",
                Files.size(big) / 1024, plan.exitValue(), (System.nanoTime() - started) / 1e9);
        assertThat(plan.exitValue()).as(run.output()).isIn(0, 2);
        assertThat(run.output()).contains("Rows:     100000 read").doesNotContain("OutOfMemoryError");
    }
}
