package org.topupbatch.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.testing.SmsGateway.Sms;

/** {@link VoucherAudit} finds each way a voucher can go wrong, and lets a duplicate by event id pass. */
class VoucherAuditTest {

    static final CampaignBatch BATCH = new CampaignBatch("v-1.csv", "", Map.of("V-1", true, "V-2", true, "V-3", true, "V-4", true),
            4, Map.of(), new LinkedHashMap<>(Map.of("V-1", "+6281350000001", "V-2", "+6281350000002", "V-3", "+6281350000003")));

    @TempDir
    Path reports;

    @BeforeEach
    void report() throws Exception {
        // V-1 and V-2 succeeded with a notify_to, V-3 failed with one, V-4 succeeded without one
        Files.writeString(reports.resolve("v-1.result.csv"), """
                line,ref_id,status,serial_number,message,customer_notified
                2,V-1,success,SN-A,ok,sent
                3,V-2,success,SN-B,ok,
                4,V-3,failed,,no,
                5,V-4,success,SN-D,ok,
                """);
    }

    static Sms sms(String to, String ref, String serial, String eventId, int status) {
        return new Sms(Instant.now(), to, "Terima kasih.\nSN / kode voucher: " + serial + "\nNo. transaksi: " + ref + "\nSalam, Toko",
                eventId, eventId, status);
    }

    VoucherAudit.Result check(Sms... received) {
        return VoucherAudit.check(List.of(received), reports, List.of(BATCH));
    }

    @Test
    void every_success_delivered_once_by_event_id_passes_and_a_repeat_of_an_event_id_is_counted() {
        VoucherAudit.Result result = check(sms("+6281350000001", "V-1", "SN-A", "voucher_1", 500),
                sms("+6281350000001", "V-1", "SN-A", "voucher_1", 200), sms("+6281350000002", "V-2", "SN-B", "voucher_2", 200),
                sms("+6281350000002", "V-2", "SN-B", "voucher_2", 200));
        assertThat(result.anomalies()).isEmpty();
        assertThat(result.describe()).isEqualTo("4 SMS requests, 2 vouchers due, 2 delivered, 1 duplicates seen (same event id again), 0 lost");
    }

    @Test
    void a_success_never_delivered_is_lost() {
        VoucherAudit.Result result = check(sms("+6281350000001", "V-1", "SN-A", "voucher_1", 200),
                sms("+6281350000002", "V-2", "SN-B", "voucher_2", 500));
        assertThat(result.lost()).isEqualTo(1);
        assertThat(result.anomalies()).singleElement().asString().contains("V-2").contains("never delivered (lost; 1 tries)");
    }

    @Test
    void a_voucher_under_two_event_ids_a_message_for_a_failure_a_wrong_serial_or_number_are_anomalies() {
        VoucherAudit.Result result = check(sms("+6281350000001", "V-1", "SN-A", "voucher_1", 200),
                sms("+6281350000001", "V-1", "SN-A", "voucher_9", 200), sms("+6281350000002", "V-2", "SN-X", "voucher_2", 200),
                sms("+6281350000003", "V-3", "", "voucher_3", 500), sms("+6281350000009", "V-2", "SN-B", "voucher_2", 200));
        assertThat(result.anomalies()).hasSize(4).anySatisfy(a -> assertThat(a).contains("V-1").contains("2 event ids"))
                .anySatisfy(a -> assertThat(a).contains("V-2").contains("does not hold the reported serial SN-B"))
                .anySatisfy(a -> assertThat(a).contains("V-3").contains("not a success, yet its customer was sent 1 message"))
                .anySatisfy(a -> assertThat(a).contains("went to +6281350000009"));
    }

    @Test
    void a_report_saying_sent_for_a_message_the_gateway_never_took_is_an_anomaly() {
        VoucherAudit.Result result = check(sms("+6281350000001", "V-1", "SN-A", "voucher_1", 500),
                sms("+6281350000002", "V-2", "SN-B", "voucher_2", 200));
        assertThat(result.anomalies()).anySatisfy(a -> assertThat(a).contains("V-1").contains("the report says sent"));
    }
}
