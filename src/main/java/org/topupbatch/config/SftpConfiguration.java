package org.topupbatch.config;

import org.apache.camel.BindToRegistry;
import org.topupbatch.report.ReportDelivery;
import org.topupbatch.settings.Settings;
import org.topupbatch.sftp.InboxRelay;
import org.topupbatch.sftp.SftpWiring;

/**
 * Inbox and reports on an SFTP server (README, "Inbox and reports on an SFTP server"): the relay
 * the sftp-inbox routes call (the remote file filter and the delivery steps), bound only when
 * those routes run, and how reports reach their folder.
 */
public final class SftpConfiguration extends AreaConfiguration {

    private final Settings settings;
    private ReportDelivery delivery;

    public SftpConfiguration(Settings settings) {
        this.settings = settings;
    }

    /** Null (nothing bound) unless the relay route runs: a remote inbox in watch mode. */
    @BindToRegistry("inboxRelay")
    public InboxRelay inboxRelay() {
        return SftpWiring.relayRoute(settings) ? SftpWiring.relay(settings) : null;
    }

    /** Local reports stay where they are written; remote ones are uploaded (closed with the context). */
    public synchronized ReportDelivery reportDelivery() {
        if (delivery == null) {
            delivery = SftpWiring.reportDelivery(settings, camel);
        }
        return delivery;
    }
}
