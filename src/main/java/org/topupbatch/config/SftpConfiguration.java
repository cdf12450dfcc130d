package org.topupbatch.config;

import org.apache.camel.BindToRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.health.HealthCheckRegistry;
import org.topupbatch.report.ReportDelivery;
import org.topupbatch.settings.Settings;
import org.topupbatch.sftp.InboxRelay;
import org.topupbatch.sftp.SftpAccess;
import org.topupbatch.sftp.SftpFolderComponent;
import org.topupbatch.sftp.SftpInboxPolls;
import org.topupbatch.sftp.SftpWiring;

/**
 * Inbox and reports on an SFTP server (docs/erp-doors.md#inbox-and-reports-on-an-sftp-server): the relay
 * the sftp-inbox routes call (the remote file filter and the delivery steps), bound only when
 * those routes run, and how reports reach their folder.
 */
public final class SftpConfiguration extends AreaConfiguration {

    private final Settings settings;
    private ReportDelivery delivery;
    /** Whether the remote inbox / reports folder can be used (null when local): health checks sftp-inbox, sftp-reports. */
    private final SftpAccess inboxAccess;
    private final SftpAccess reportsAccess;

    public SftpConfiguration(Settings settings) {
        this.settings = settings;
        this.inboxAccess = SftpWiring.relayRoute(settings.sftp(), settings.pickUp().mode()) ? SftpWiring.access(settings.sftp(), "inbox") : null;
        this.reportsAccess = SftpWiring.access(settings.sftp(), "reports");
    }

    /** camel-ftp's sftp component keeping an absolute folder (sftp://user@host//srv/x) absolute; null when no folder is remote. */
    @BindToRegistry(SftpFolderComponent.NAME)
    public SftpFolderComponent sftpComponent() {
        return settings.sftp().inbox() == null && settings.sftp().reports() == null ? null : new SftpFolderComponent();
    }

    /** The relay consumer's poll strategy and exception handler (one log line per change, growing back-off). */
    @BindToRegistry("sftpInboxPolls")
    public SftpInboxPolls sftpInboxPolls() {
        return inboxAccess == null ? null : new SftpInboxPolls(inboxAccess);
    }

    /** Readiness checks next to the journal's and the provider's: DOWN with the reason while a folder cannot be used. */
    @Override
    public void configure(CamelContext camelContext) {
        HealthCheckRegistry health = HealthCheckRegistry.get(camelContext);
        if (health != null) {
            if (inboxAccess != null) {
                health.register(inboxAccess);
            }
            if (reportsAccess != null) {
                health.register(reportsAccess);
            }
        }
    }

    /** Null (nothing bound) unless the relay route runs: a remote inbox in watch mode. */
    @BindToRegistry("inboxRelay")
    public InboxRelay inboxRelay() {
        return SftpWiring.relayRoute(settings.sftp(), settings.pickUp().mode()) ? SftpWiring.relay(settings.sftp(), settings.folders()) : null;
    }

    /** Local reports stay where they are written; remote ones are uploaded (closed with the context). */
    public synchronized ReportDelivery reportDelivery() {
        if (delivery == null) {
            delivery = SftpWiring.reportDelivery(settings.sftp(), settings.folders().data(), camel, reportsAccess);
        }
        return delivery;
    }
}
