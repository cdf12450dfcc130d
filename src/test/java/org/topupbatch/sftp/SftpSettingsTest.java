package org.topupbatch.sftp;

import org.topupbatch.settings.SftpLogin;

import org.topupbatch.settings.SftpSettings;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.camel.util.URISupport;
import org.junit.jupiter.api.Test;
import org.topupbatch.settings.Settings;
import org.topupbatch.settings.SettingsException;

class SftpSettingsTest {

    static final String SECRET = "Kata&Sandi#2026";
    private final Map<String, String> values = new HashMap<>(Map.of("topup.data", "/var/lib/topup"));

    private Settings load() {
        return Settings.load(values::get);
    }

    @Test
    void an_sftp_inbox_and_reports_folder_work_through_local_folders_under_data() {
        values.put("topup.inbox", "sftp://erp@files.example.com:2222/outgoing/topup?connectTimeout=5000");
        values.put("topup.reports", "sftp://erp@files.example.com/incoming");
        values.put("topup.sftp.password", SECRET);
        Settings s = load();
        assertThat(s.folders().inbox()).isEqualTo(Path.of("/var/lib/topup/sftp-inbox"));
        assertThat(s.folders().reports()).isEqualTo(Path.of("/var/lib/topup/reports-outbox"));
        assertThat(s.inboxShown()).isEqualTo("sftp://erp@files.example.com:2222/outgoing/topup");
        assertThat(s.reportsShown()).isEqualTo("sftp://erp@files.example.com:22/incoming");
        assertThat(s.toString()).doesNotContain(SECRET).contains("inbox=sftp://erp@files.example.com:2222/outgoing/topup");

        String uri = new InboxRelay(s.sftp().inbox(), s.sftp().login(), s.folders().inbox(), Path.of("/tmp/w")).endpointUri("delay=5000");
        assertThat(uri).startsWith("sftp://erp@files.example.com:2222/outgoing/topup?connectTimeout=5000&strictHostKeyChecking=yes")
                .contains("password=RAW(" + SECRET + ")").contains("readLock=changed").contains("move=.archive/");
        assertThat(URISupport.sanitizeUri(uri)).as("what Camel logs").doesNotContain(SECRET).doesNotContain("Kata");
    }

    @Test
    void a_double_slash_names_an_absolute_folder_and_the_endpoint_keeps_it() {
        values.put("topup.inbox", "sftp://erp@files.example.com//srv/out");
        values.put("topup.sftp.password", SECRET);
        Settings s = load();
        assertThat(s.sftp().inbox().path()).isEqualTo("/srv/out");
        assertThat(s.inboxShown()).isEqualTo("sftp://erp@files.example.com:22//srv/out");
        assertThat(new InboxRelay(s.sftp().inbox(), s.sftp().login(), s.folders().inbox(), Path.of("/tmp/w")).endpointUri("delay=5000"))
                .startsWith("sftp://erp@files.example.com:22//srv/out?");
    }

    @Test
    void a_local_inbox_stays_a_local_path_and_needs_no_login() {
        values.put("topup.inbox", "/srv/erp/out");
        Settings s = load();
        assertThat(s.folders().inbox()).isEqualTo(Path.of("/srv/erp/out"));
        assertThat(s.sftp()).isEqualTo(SftpSettings.NONE);
    }

    @Test
    void a_password_in_the_address_is_refused_without_showing_it() {
        values.put("topup.inbox", "sftp://erp:" + SECRET + "@files.example.com/out");
        assertThatThrownBy(this::load).isInstanceOf(SettingsException.class)
                .hasMessage("topup.inbox: put the SFTP password in topup.sftp.password (TOPUP_SFTP_PASSWORD), not in the address");
        values.put("topup.inbox", "sftp://erp@files.example.com/out?password=" + SECRET);
        assertThatThrownBy(this::load).isInstanceOf(SettingsException.class)
                .hasMessageStartingWith("topup.inbox: put SFTP secrets in topup.sftp.password").hasMessageNotContaining("Kata");
    }

    @Test
    void an_sftp_folder_needs_a_user_a_folder_and_a_login() {
        values.put("topup.reports", "sftp://files.example.com/in");
        assertThatThrownBy(this::load).hasMessage("topup.reports: 'sftp://files.example.com/in' needs a user and a host: "
                + "sftp://user@host:port/folder");
        values.put("topup.reports", "sftp://erp@files.example.com/");
        assertThatThrownBy(this::load).hasMessageContaining("names no folder");
        values.put("topup.reports", "sftp://erp@files.example.com/in");
        assertThatThrownBy(this::load).hasMessageStartingWith("topup.sftp.password: an sftp:// inbox or reports folder needs");
        values.put("topup.sftp.password", SECRET);
        values.put("topup.sftp.strict-host-key-checking", "maybe");
        assertThatThrownBy(this::load).hasMessage("topup.sftp.strict-host-key-checking: 'maybe' is neither yes nor no");
    }

    @Test
    void messages_of_the_sftp_library_lose_the_password() {
        SftpLogin login = new SftpLogin(SECRET, null, null, true);
        assertThat(login.masked("Cannot connect to sftp://erp@h:22/x?password=RAW(" + SECRET + ")&binary=true"))
                .isEqualTo("Cannot connect to sftp://erp@h:22/x?password=xxxxxx&binary=true");
        assertThat(login.masked("Auth fail for " + SECRET)).isEqualTo("Auth fail for xxxxxx");
        // Camel's message when it could not set the options shows them plain; the pattern alone stops at '&'
        assertThat(login.masked("Unknown parameters=[{password=" + SECRET + ", strictHostKeyChecking=yes}]"))
                .isEqualTo("Unknown parameters=[{password=xxxxxx, strictHostKeyChecking=yes}]");
    }
}
