package org.topupbatch.sftp;

import java.util.Map;
import org.apache.camel.CamelContext;
import org.topupbatch.settings.FolderSettings;
import org.topupbatch.settings.PickUpSettings;
import org.topupbatch.settings.SftpSettings;
import org.topupbatch.report.ReportDelivery;

/**
 * Where the SFTP parts plug into a run: the relay route's endpoint, the beans it and the report
 * writer use, and the once-mode fetch before the run's inbox snapshot. Nothing here when neither
 * inbox nor reports is on a server.
 */
public final class SftpWiring {

    /**
     * The route files of the relay, left out unless a remote inbox is watched (once mode loads the
     * delivery route into its own context for the fetch before the run, InboxRelay.fetchPresent).
     */
    public static final String ROUTE_FILE = "**/sftp-inbox.yaml,**/sftp-inbox-delivery.yaml";
    /**
     * Every 5 s; a failed poll is rethrown (throwExceptionOnConnectFailed) to the poll strategy
     * {@link SftpInboxPolls}, which logs it once, turns the health check DOWN and doubles the
     * back-off (polls skipped) up to 5 minutes between logins.
     */
    private static final String RELAY_SCHEDULE = "delay=5000&backoffErrorThreshold=1&backoffMultiplier=1"
            + "&throwExceptionOnConnectFailed=true&pollStrategy=#sftpInboxPolls&exceptionHandler=#sftpInboxPolls";

    static {
        // JSch sends a refused password (or key) up to 6 times on one connection (MaxAuthTries), and
        // each counts as a failed login at the server (fail2ban, account lockout): once is enough,
        // a wrong password does not become right on the second try. Global, but camel-ftp is the
        // product's only JSch user.
        com.jcraft.jsch.JSch.setConfig("MaxAuthTries", "1");
    }

    private SftpWiring() {
    }

    /** True when the relay route runs: a remote inbox in watch mode (once mode fetches before the start). */
    public static boolean relayRoute(SftpSettings sftp, PickUpSettings.Mode mode) {
        return sftp.inbox() != null && mode == PickUpSettings.Mode.WATCH;
    }

    /** Adds the relay route's endpoint address (with the password, which Camel masks in what it logs). */
    public static void camelProperties(SftpSettings sftp, PickUpSettings.Mode mode, FolderSettings folders,
            Map<String, String> properties) {
        if (relayRoute(sftp, mode)) {
            properties.put("topup.internal.sftp-inbox-uri", relay(sftp, folders).endpointUri(RELAY_SCHEDULE));
        }
    }

    /** How reports reach their folder: as written locally, or uploaded to the server by a service closed with the context. */
    public static ReportDelivery reportDelivery(SftpSettings sftp, java.nio.file.Path data, CamelContext camel,
            SftpAccess access) {
        if (sftp.reports() == null) {
            return ReportDelivery.LOCAL;
        }
        ReportUpload upload = new ReportUpload(sftp.reports(), sftp.login(), camel, data, access);
        try {
            camel.addService(upload, true, true); // closed with the context
        } catch (Exception e) {
            throw new IllegalStateException("cannot register the report upload", e);
        }
        return upload;
    }

    /**
     * Once mode with a remote inbox: brings the batches complete on the server now into the local
     * inbox. Returns how many.
     *
     * @throws SftpUnavailableException naming the server, without secrets
     */
    public static int fetchBeforeOnceRun(SftpSettings sftp, PickUpSettings.Mode mode, FolderSettings folders) {
        if (sftp.inbox() == null || mode != PickUpSettings.Mode.ONCE) {
            return 0;
        }
        return relay(sftp, folders).fetchPresent();
    }

    /** The health of a remote folder ("inbox" or "reports"), null when that folder is local. */
    public static SftpAccess access(SftpSettings sftp, String role) {
        var folder = role.equals("inbox") ? sftp.inbox() : sftp.reports();
        return folder == null ? null : new SftpAccess(role, folder, sftp.login());
    }

    public static InboxRelay relay(SftpSettings sftp, FolderSettings folders) {
        return new InboxRelay(sftp.inbox(), sftp.login(), folders.inbox(), folders.data().resolve("sftp-work"));
    }
}
