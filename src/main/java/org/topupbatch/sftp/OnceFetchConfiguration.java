package org.topupbatch.sftp;

import java.nio.file.Path;
import java.util.Properties;
import org.apache.camel.BindToRegistry;
import org.apache.camel.CamelConfiguration;
import org.apache.camel.CamelContext;
import org.apache.camel.Consumer;
import org.apache.camel.Endpoint;
import org.apache.camel.spi.PollingConsumerPollStrategy;
import org.apache.camel.support.PluginHelper;

/**
 * The beans and the route of once mode's fetch ({@link InboxRelay#fetchPresent}), which runs in a
 * Camel of its own before the run's Camel starts: bound from these {@code @BindToRegistry} methods
 * by Camel's bean post-processor, as a run's Camel Main binds the areas' configuration classes
 * (config.SftpConfiguration for watch mode's relay), then {@link #configure} loads the delivery route.
 */
public final class OnceFetchConfiguration implements CamelConfiguration {

    /** The poll strategy the fetch's endpoint names ({@code pollStrategy=#sftpOncePoll}). */
    static final String POLL_STRATEGY = "sftpOncePoll";

    private final InboxRelay relay;
    private final Path localInbox;

    OnceFetchConfiguration(InboxRelay relay, Path localInbox) {
        this.relay = relay;
        this.localInbox = localInbox;
    }

    /** The delivery route's steps and the remote file filter (routes/sftp-inbox-delivery.yaml). */
    @BindToRegistry("inboxRelay")
    public InboxRelay inboxRelay() {
        return relay;
    }

    /** camel-ftp's sftp component keeping an absolute folder absolute, as in a run's Camel. */
    @BindToRegistry(SftpFolderComponent.NAME)
    public SftpFolderComponent sftpComponent() {
        return new SftpFolderComponent();
    }

    /** A failed login goes straight to the fetch's one line: not camel-ftp's WARN about reconnecting. */
    @BindToRegistry(POLL_STRATEGY)
    public PollingConsumerPollStrategy sftpOncePoll() {
        return new PollingConsumerPollStrategy() {
            @Override
            public boolean begin(Consumer consumer, Endpoint endpoint) {
                return true;
            }

            @Override
            public void commit(Consumer consumer, Endpoint endpoint, int polledMessages) {
            }

            @Override
            public boolean rollback(Consumer consumer, Endpoint endpoint, int retryCounter, Exception cause)
                    throws Exception {
                throw cause;
            }
        };
    }

    /** The delivery route, writing into the local inbox (the same file as watch mode's). */
    @Override
    public void configure(CamelContext camel) throws Exception {
        Properties properties = new Properties();
        properties.setProperty("topup.internal.inbox-folder", localInbox.toAbsolutePath().toString());
        camel.getPropertiesComponent().setOverrideProperties(properties);
        PluginHelper.getRoutesLoader(camel).loadRoutes(
                PluginHelper.getResourceLoader(camel).resolveResource(InboxRelay.DELIVERY_ROUTE_FILE));
    }
}
