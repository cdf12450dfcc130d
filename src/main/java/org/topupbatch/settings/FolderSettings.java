package org.topupbatch.settings;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * The product's folders: the inbox it takes batches from, where reports go, and its data (journal,
 * archive, files set aside). An inbox or reports folder on an SFTP server ({@link SftpSettings}) is
 * a local folder under data here.
 */
public record FolderSettings(Path inbox, Path reports, Path data) {

    static final Setting<Path> INBOX = Setting.of("topup.inbox", "inbox",
            "folder watched for *.csv and *.xlsx batches, or a folder on an SFTP server", SettingChecks::folder);
    static final Setting<Path> REPORTS = Setting.of("topup.reports", "reports",
            "where reports are written", SettingChecks::folder);
    static final Setting<Path> DATA = Setting.of("topup.data", "data",
            "the journal (data/journal/), the archive of processed inputs (data/archive/)", SettingChecks::folder);

    static final List<Setting<?>> DECLARED = List.of(INBOX, REPORTS, DATA);

    static FolderSettings load(Function<String, String> lookup, SftpSettings sftp) {
        Path data = DATA.read(lookup);
        return new FolderSettings(
                sftp.inbox() != null ? SftpSettings.localInbox(data) : INBOX.read(lookup),
                sftp.reports() != null ? SftpSettings.reportsOutbox(data) : REPORTS.read(lookup),
                data);
    }
}
