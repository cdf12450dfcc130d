package org.topupbatch.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.settings.SettingsException;

/** The customer's message template (docs/customer-messages.md): the Indonesian default, a reseller's file, its checks. */
class CustomerTemplateTest {

    static final Map<String, String> VALUES = Map.of("product", "TSEL10", "serial", "SN-0042", "reseller", "Toko Budi",
            "ref_id", "INV-7", "customer_no", "0812");

    @Test
    void theDefaultIsIndonesianWithSubjectSerialAndReseller() {
        CustomerTemplate t = CustomerTemplate.load(null);
        assertThat(t.subject(VALUES)).isEqualTo("Voucher TSEL10 dari Toko Budi");
        assertThat(t.text(VALUES)).isEqualTo("""
                Terima kasih, pembelian TSEL10 Anda berhasil.
                SN / kode voucher: SN-0042
                No. transaksi: INV-7
                Salam, Toko Budi""");
    }

    @Test
    void aResellersFileReplacesItAndAValueIsNeverReadAsAPlaceholder(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("pesan.txt");
        Files.writeString(file, "Kode {serial} untuk {customer_no} ({product}).\r\n", StandardCharsets.UTF_8);
        CustomerTemplate t = CustomerTemplate.load(file);
        assertThat(t.text(VALUES)).isEqualTo("Kode SN-0042 untuk 0812 (TSEL10).");
        assertThat(t.subject(VALUES)).isEqualTo("Voucher TSEL10");
        assertThat(t.text(Map.of("serial", "{reseller} $1 \\", "customer_no", "x", "product", "p")))
                .isEqualTo("Kode {reseller} $1 \\ untuk x (p).");
    }

    @Test
    void anUnknownPlaceholderOrAnUnreadableFileStopsTheStartInOneLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("pesan.txt");
        Files.writeString(file, "Kode {seral}", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> CustomerTemplate.load(file)).isInstanceOf(SettingsException.class)
                .hasMessage("topup.customer.template " + file + ": unknown placeholder {seral}"
                        + " (known: {product} {serial} {reseller} {ref_id} {customer_no})");
        assertThatThrownBy(() -> CustomerTemplate.load(dir.resolve("missing.txt"))).isInstanceOf(SettingsException.class)
                .hasMessageStartingWith("topup.customer.template: " + dir.resolve("missing.txt") + " cannot be read");
    }
}
