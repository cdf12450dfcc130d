package org.topupbatch.settings;

import org.topupbatch.settings.SftpLogin;
import org.topupbatch.settings.SftpFolder;

import java.nio.file.Path;
import java.util.function.Function;

/**
 * The SFTP side of the settings: which of inbox and reports are on a server, and the login.
 * A remote inbox is relayed into a local one under {@code topup.data} (docs/erp-doors.md#inbox-and-reports-on-an-sftp-server), and reports are written into a local outbox there and uploaded from it, so
 * that intake and report naming work on local files exactly as without a server.
 */
public record SftpSettings(SftpFolder inbox, SftpFolder reports, SftpLogin login) {

    public static final SftpSettings NONE = new SftpSettings(null, null, null);

    /** Reads {@code topup.inbox}, {@code topup.reports} and, when either is a server folder, the login. */
    public static SftpSettings load(Function<String, String> optional) {
        // the keys FolderSettings declares: a folder there, or one on a server here
        String inboxKey = FolderSettings.INBOX.key();
        String reportsKey = FolderSettings.REPORTS.key();
        SftpFolder inbox = SftpFolder.parse(inboxKey, optional.apply(inboxKey)).orElse(null);
        SftpFolder reports = SftpFolder.parse(reportsKey, optional.apply(reportsKey)).orElse(null);
        if (inbox == null && reports == null) {
            return NONE;
        }
        return new SftpSettings(inbox, reports, SftpLogin.load(optional));
    }

    /** The local folder the intake watches when the inbox is on a server. */
    public static Path localInbox(Path data) {
        return data.resolve("sftp-inbox");
    }

    /** The local folder reports are written into before they are uploaded. */
    public static Path reportsOutbox(Path data) {
        return data.resolve("reports-outbox");
    }

    @Override
    public String toString() {
        return "SftpSettings[inbox=" + inbox + ", reports=" + reports + ", login=" + login + "]";
    }
}
