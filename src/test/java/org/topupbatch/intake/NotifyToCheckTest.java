package org.topupbatch.intake;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The optional notify_to column (docs/customer-messages.md): read, checked like the other row checks, kept normalised. */
class NotifyToCheckTest {

    final RowValidator validator = new RowValidator(new TestCatalog(), CustomerRules.loadDefault());

    static BatchRow row(String notifyTo) {
        return new BatchRow(0, 2, "R-1", "TSEL10", "081234567890", "", "", List.of(), null, notifyTo);
    }

    @Test
    void theColumnIsReadInAnyCaseAndIsNoExtra() {
        BatchColumns columns = new BatchColumns(List.of("ref_id", "product_sku", "customer_no", " Notify_To ", "note"));
        BatchRow row = columns.row(0, 2, List.of("R-1", "TSEL10", "0812", " budi@example.com ", "x"), ',');
        assertThat(row.notifyTo()).isEqualTo("budi@example.com");
        assertThat(columns.extraHeaders()).containsExactly("note");
        assertThat(new BatchColumns(List.of("ref_id", "product_sku", "customer_no"))
                .row(0, 2, List.of("R-1", "TSEL10", "0812"), ',').notifyTo()).isEmpty();
    }

    @Test
    void everyFormOfAMobileNumberTheIntakeKnowsIsAcceptedAndKeptInternational() {
        for (String written : List.of("081234567890", "6281234567890", "+6281234567890", "+62 812-3456-7890", "0812 3456 7890")) {
            assertThat(validator.validate(row(written)).accepted()).as(written).isTrue();
            assertThat(NotifyAddress.normalized(written)).as(written).isEqualTo("+6281234567890");
        }
    }

    @Test
    void anEmailAddressIsAcceptedAsWritten() {
        assertThat(validator.validate(row("budi.s+topup@mail.example.co.id")).accepted()).isTrue();
        assertThat(NotifyAddress.normalized("budi.s+topup@mail.example.co.id")).isEqualTo("budi.s+topup@mail.example.co.id");
    }

    @Test
    void anEmptyNotifyToIsNoMessageAndNoRejection() {
        assertThat(validator.validate(row("")).accepted()).isTrue();
    }

    @Test
    void whatIsCertainlyNeitherIsRejectedInOneLineNamingTheColumn() {
        for (String bad : List.of("budi", "budi@", "@example.com", "budi@example", "budi @example.com", "12345",
                "021-555-1234", "a@b@c.com")) {
            assertThat(validator.validate(row(bad)).reason()).as(bad)
                    .isEqualTo("notify_to must be a mobile number (08…, 628… or +628…) or an e-mail address (found '"
                            + bad + "')");
        }
        assertThat(validator.validate(row("x\ny")).reason()).doesNotContain("\n");
    }
}
