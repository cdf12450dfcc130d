package org.topupbatch.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Numbers as Excel's "General" format shows them, and a file that is no workbook. */
class WorkbookTextTest {

    @TempDir
    Path dir;

    @Test
    void numbers_read_as_excel_shows_them_in_general() {
        assertThat(WorkbookText.number(new BigDecimal("123456789"), null)).isEqualTo("123456789");
        assertThat(WorkbookText.number(new BigDecimal("81234567890"), null)).isEqualTo("81234567890");
        assertThat(WorkbookText.number(new BigDecimal("6281234567890"), null)).isEqualTo("6.28123E+12");
        assertThat(WorkbookText.number(new BigDecimal("628123000000"), null)).isEqualTo("6.28123E+11");
        assertThat(WorkbookText.number(new BigDecimal("100000000000"), null)).isEqualTo("1E+11");
        assertThat(WorkbookText.number(new BigDecimal("2345.0"), null)).isEqualTo("2345");
        assertThat(WorkbookText.number(new BigDecimal("0.5"), null)).isEqualTo("0.5");
        assertThat(WorkbookText.number(new BigDecimal("6281234567890"), "0")).as("a cell formatted 0").isEqualTo("6281234567890");
    }

    @Test
    void a_file_that_is_no_workbook_is_unreadable_with_one_line() throws Exception {
        Path junk = Files.writeString(dir.resolve("orders.xlsx"), "ref_id,product_sku\nA,B\n");
        assertThatThrownBy(() -> WorkbookText.toCsv(junk, dir.resolve("out.csv")))
                .isInstanceOf(UnreadableBatchException.class)
                .hasMessageStartingWith("not an Excel workbook (.xlsx) that can be read:");
    }
}
