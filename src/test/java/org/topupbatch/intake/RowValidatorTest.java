package org.topupbatch.intake;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RowValidatorTest {

    final RowValidator validator = new RowValidator(new TestCatalog(), CustomerRules.loadDefault());

    static BatchRow row(String refId, String sku, String customerNo, String zone, String maxPrice) {
        return new BatchRow(0, 2, refId, sku, customerNo, zone, maxPrice, List.of(), null);
    }

    String reason(BatchRow row) {
        RowDecision d = validator.validate(row, Set.of("TAKEN-1")::contains);
        assertThat(d.accepted()).isFalse();
        assertThat(d.price()).isNull();
        return d.reason();
    }

    @Test
    void acceptsAtTheCatalogPrice() {
        RowDecision d = validator.validate(row("R-1.a_b", "ML86", "123456", "2001", "20000"));
        assertThat(d.accepted()).isTrue();
        assertThat(d.price()).isEqualTo(20000L);
        assertThat(d.maxPrice()).isEqualTo(20000L);
        assertThat(d.reason()).isNull();
        assertThat(validator.validate(row("R-2", "TSEL10", "081234567890", "", "")).maxPrice()).isNull();
    }

    @Test
    void malformedRowKeepsItsReaderError() {
        BatchRow bad = new BatchRow(0, 7, "", "", "", "", "", List.of(), "line 7: a quoted field ...");
        assertThat(reason(bad)).isEqualTo("line 7: a quoted field ...");
    }

    @Test
    void requiredFields() {
        assertThat(reason(row("", "ML86", "123456", "1", ""))).isEqualTo("required field ref_id is empty");
        assertThat(reason(row("R", "", "123456", "1", ""))).isEqualTo("required field product_sku is empty");
        assertThat(reason(row("R", "ML86", "", "1", ""))).isEqualTo("required field customer_no is empty");
        assertThat(reason(row("", "", "", "", "x"))).isEqualTo("required fields ref_id, product_sku, customer_no are empty");
    }

    @Test
    void refIdForm() {
        assertThat(reason(row("A".repeat(51), "ML86", "123456", "1", "")))
                .isEqualTo("ref_id is 51 characters long, at most 50 are allowed");
        assertThat(validator.validate(row("A".repeat(50), "ML86", "123456", "1", "")).accepted()).isTrue();
        assertThat(reason(row("R 1", "ML86", "123456", "1", "")))
                .isEqualTo("ref_id may hold only letters, digits, '-', '_' and '.' (found a space)");
        assertThat(reason(row("R/1", "ML86", "123456", "1", "")))
                .isEqualTo("ref_id may hold only letters, digits, '-', '_' and '.' (found '/')");
        assertThat(reason(row("Ré", "ML86", "123456", "1", "")))
                .isEqualTo("ref_id may hold only letters, digits, '-', '_' and '.' (found 'é')");
    }

    @Test
    void refIdTakenComesBeforeProductChecks() {
        assertThat(reason(row("TAKEN-1", "NOPE", "123456", "1", "")))
                .isEqualTo("ref_id TAKEN-1 already submitted (an earlier batch has it)");
    }

    @Test
    void product() {
        assertThat(reason(row("R", "NOPE", "123456", "1", ""))).isEqualTo("product_sku NOPE is not in the price list");
        assertThat(reason(row("R", "ML_OFF", "123456", "1", ""))).isEqualTo("product_sku ML_OFF is not available now");
    }

    @Test
    void customerRulesByBrandOfTheProduct() {
        assertThat(reason(row("R", "VAL125", "Player", "", "")))
                .isEqualTo("customer_no must be a Riot ID Name#TAG (name 3 to 16 characters, tag 3 to 5 letters or digits),"
                        + " e.g. Player#1234");
        assertThat(reason(row("R", "ML86", "123456", "", "")))
                .isEqualTo("customer_no_zone is required for MOBILE LEGENDS: a zone ID of 1 to 5 digits"
                        + " (or write it after the user ID, 123456789 (2012)), e.g. 2012");
        assertThat(validator.validate(row("R", "OTHER1", "whatever", "", "")).accepted()).isTrue();
    }

    @Test
    void doubtsAboutTheCustomerAreWarningsOnAnAcceptedRow() {
        RowDecision d = validator.validate(row("R", "TSEL10", "+6289912345678", "", ""));
        assertThat(d.accepted()).isTrue();
        assertThat(d.warnings()).containsExactly("customer_no +6289912345678 does not start with a TELKOMSEL prefix"
                + " (0811, 0812, 0813, 0821, 0822, 0823, 0851, 0852, 0853); sent anyway, the provider decides");
        assertThat(validator.validate(row("R", "TSEL10", "081234567890", "", "")).warnings()).isEmpty();
    }

    @Test
    void maxPrice() {
        assertThat(reason(row("R", "TSEL10", "081234567890", "", "10000"))).isEqualTo("price 10450 exceeds max_price 10000");
        assertThat(validator.validate(row("R", "TSEL10", "081234567890", "", "10450")).accepted()).isTrue();
        for (String bad : List.of("10.000", "-5", "1e4", "abc", "99999999999999999999")) {
            RowDecision d = validator.validate(row("R", "TSEL10", "081234567890", "", bad));
            assertThat(d.reason()).isEqualTo("max_price must be a whole number of rupiah, 0 or more, without separators (found '" + bad + "')");
            assertThat(d.maxPrice()).isNull();
        }
        assertThat(reason(row("R", "TSEL10", "081234567890", "", "0"))).isEqualTo("price 10450 exceeds max_price 0");
    }
}
