package org.topupbatch.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.StringReader;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.LedgerEntry;

/**
 * {@link AccountsLedgerAudit} can fail: a clean outcome passes, and each planted fault (a row ordered at
 * both accounts, a ref_id twice in one ledger, an order of no row, a report naming the wrong account,
 * a row lost from the report, a row reported failed while it has an order) is reported.
 */
class AccountsLedgerAuditTest {

    static final String INPUT = """
            ref_id,product_sku,customer_no,customer_no_zone,erp_id
            T1-0001,TSEL10,081234561001,,ERP-1
            T1-0002,PUBG60,5123451002,,ERP-2
            T1-0003,NOPE1,12345678,,ERP-3
            T1-0004,FF100,12341004,,ERP-4
            """;
    static final CampaignBatch BATCH = new CampaignBatch("audit-1.csv", INPUT,
            new LinkedHashMap<>(Map.of("T1-0001", true, "T1-0002", true, "T1-0003", false, "T1-0004", true)), 4);
    static final String HEADER = "line,ref_id,product_sku,customer_no,customer_no_zone,status,serial_number,price,message,"
            + "provider,provider_ref_id,erp_id\n";

    /** T1-0001 at main; T1-0002 at dfz; T1-0003 rejected; T1-0004 refused at main, moved, success at dfz as -F2. */
    static final String REPORT = HEADER
            + "2,T1-0001,TSEL10,081234561001,,success,SN1,10260,Transaction successful,main,T1-0001,ERP-1\n"
            + "3,T1-0002,PUBG60,5123451002,,success,SN2,14250,Transaksi Sukses,dfz,T1-0002,ERP-2\n"
            + "4,T1-0003,NOPE1,12345678,,rejected,,,product_sku NOPE1 is not in the price list,,,ERP-3\n"
            + "5,T1-0004,FF100,12341004,,success,SN4,13775,Transaksi Sukses,dfz,T1-0004-F2,ERP-4\n";
    static final String SUMMARY = """
            {"rows": 4, "submitted": 3, "success": 3, "failed": 0, "pending": 0, "rejected": 1,
             "accounts": {"main": {"success": 1, "failed": 0}, "dfz": {"success": 2, "failed": 0}}}""";

    static LedgerEntry order(String ref, String sku, String customer, String status, String serial, long price) {
        Instant at = Instant.parse("2026-11-21T10:00:00Z");
        return new LedgerEntry(ref, sku, customer, "", status, serial, price, 1_000_000, 1_000_000 - price, at, at,
                status.equals("failed"));
    }

    static Map<String, List<LedgerEntry>> ledgers() {
        Map<String, List<LedgerEntry>> ledgers = new LinkedHashMap<>();
        ledgers.put("main", new ArrayList<>(List.of(order("T1-0001", "TSEL10", "081234561001", "success", "SN1", 10260))));
        ledgers.put("dfz", new ArrayList<>(List.of(order("T1-0002", "PUBG60", "5123451002", "success", "SN2", 14250),
                order("T1-0004-F2", "FF100", "12341004", "success", "SN4", 13775))));
        return ledgers;
    }

    static List<String> audit(Map<String, List<LedgerEntry>> ledgers, String report, String summary) throws Exception {
        JsonNode s = new ObjectMapper().readTree(summary);
        AccountsLedgerAudit.Report r = report == null ? null : AccountsLedgerAudit.parseReport(new StringReader(report), s);
        Map<String, AccountsLedgerAudit.Report> reports = new LinkedHashMap<>();
        if (r != null) {
            reports.put(BATCH.baseName(), r);
        }
        return AccountsLedgerAudit.check(List.of(BATCH), ledgers, reports).anomalies();
    }

    @Test
    void a_clean_outcome_passes_and_counts_the_moved_row() throws Exception {
        Map<String, List<LedgerEntry>> ledgers = ledgers();
        JsonNode s = new ObjectMapper().readTree(SUMMARY);
        AccountsLedgerAudit.Result result = AccountsLedgerAudit.check(List.of(BATCH), ledgers,
                Map.of(BATCH.baseName(), AccountsLedgerAudit.parseReport(new StringReader(REPORT), s)));
        assertThat(result.anomalies()).isEmpty();
        assertThat(result.figures().movedRows()).isEqualTo(1);
        assertThat(result.figures().ordersByAccount()).containsEntry("main", 1).containsEntry("dfz", 2);
        assertThat(result.figures().fallbackOrders()).containsEntry("dfz", 1).containsEntry("main", 0);
    }

    @Test
    void a_row_ordered_at_both_accounts_is_a_double_order() throws Exception {
        Map<String, List<LedgerEntry>> ledgers = ledgers();
        // planted: T1-0001 was ordered at main and then moved to dfz all the same
        ledgers.get("dfz").add(order("T1-0001-F2", "TSEL10", "081234561001", "success", "SN9", 10260));
        List<String> anomalies = audit(ledgers, REPORT, SUMMARY);
        assertThat(anomalies).anySatisfy(a -> assertThat(a).contains("T1-0001").contains("ordered twice")
                .contains("T1-0001 at main").contains("T1-0001-F2 at dfz"));
    }

    @Test
    void a_refused_row_placed_again_after_a_failed_order_is_reported() throws Exception {
        Map<String, List<LedgerEntry>> ledgers = ledgers();
        ledgers.get("main").add(order("T1-0004", "FF100", "12341004", "failed", null, 13775));
        assertThat(audit(ledgers, REPORT, SUMMARY)).anySatisfy(a -> assertThat(a).contains("T1-0004")
                .contains("2 orders across the accounts"));
    }

    @Test
    void a_ref_id_twice_in_one_ledger_and_an_order_of_no_row_are_reported() throws Exception {
        Map<String, List<LedgerEntry>> ledgers = ledgers();
        ledgers.get("main").add(order("T1-0001", "TSEL10", "081234561001", "success", "SN1b", 10260));
        ledgers.get("dfz").add(order("ZZ-0001", "TSEL10", "081299990000", "success", "SN8", 10260));
        List<String> anomalies = audit(ledgers, REPORT, SUMMARY);
        assertThat(anomalies).anySatisfy(a -> assertThat(a).contains("T1-0001 is in main's ledger twice"));
        assertThat(anomalies).anySatisfy(a -> assertThat(a).contains("ZZ-0001").contains("belongs to no row"));
    }

    @Test
    void a_report_naming_the_wrong_account_or_losing_a_row_is_reported() throws Exception {
        String wrongAccount = REPORT.replace("main,T1-0001,ERP-1", "dfz,T1-0001,ERP-1");
        assertThat(audit(ledgers(), wrongAccount, SUMMARY))
                .anySatisfy(a -> assertThat(a).contains("T1-0001").contains("reported success at dfz"));
        String lost = REPORT.replace("3,T1-0002,PUBG60,5123451002,,success,SN2,14250,Transaksi Sukses,dfz,T1-0002,ERP-2\n", "");
        assertThat(audit(ledgers(), lost, SUMMARY)).anySatisfy(a -> assertThat(a).contains("T1-0002").contains("lost"));
        String hidden = REPORT.replace("success,SN2,14250,Transaksi Sukses,dfz,T1-0002", "failed,,,main refused it,main,T1-0002");
        assertThat(audit(ledgers(), hidden, SUMMARY))
                .anySatisfy(a -> assertThat(a).contains("T1-0002").contains("has an order elsewhere"));
        String pending = REPORT.replace("success,SN4,13775,Transaksi Sukses", "pending,,13775,Transaksi Pending");
        assertThat(audit(ledgers(), pending, SUMMARY)).anySatisfy(a -> assertThat(a).contains("T1-0004").contains("not final"));
        assertThat(audit(ledgers(), null, SUMMARY)).anySatisfy(a -> assertThat(a).contains("audit-1.csv is not reported"));
    }
}
