package org.topupbatch.config;

import java.time.Clock;
import org.apache.camel.BindToRegistry;
import org.topupbatch.settings.Settings;
import org.topupbatch.track.DueOrders;
import org.topupbatch.track.OrderHistorySearch;
import org.topupbatch.track.OrderRequests;
import org.topupbatch.track.PendingOrderPolling;
import org.topupbatch.track.TrackedOrders;
import org.topupbatch.track.UnknownOrderReconciliation;
import org.topupbatch.track.WebhookAuthenticator;
import org.topupbatch.track.WebhookReceiver;

/**
 * Tracking (routes/track.yaml, routes/track-webhook.yaml): which orders are due for a look-up,
 * reconciling unknown ones, polling pending ones, and the webhook receiver.
 */
public final class TrackConfiguration extends AreaConfiguration {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TrackConfiguration.class);

    private final Settings settings;
    private final Clock clock;
    private final JournalConfiguration journal;
    private final ProviderConfiguration provider;
    private WebhookAuthenticator webhooks;
    private java.util.Map<String, WebhookAuthenticator> accountWebhooks;
    private TrackedOrders trackedOrders;

    public TrackConfiguration(Settings settings, Clock clock, JournalConfiguration journal, ProviderConfiguration provider) {
        this.settings = settings;
        this.clock = clock;
        this.journal = journal;
        this.provider = provider;
    }

    private org.topupbatch.cluster.AccountsLed led = org.topupbatch.cluster.AccountsLed.EVERY;

    /** The accounts whose orders this node follows (several accounts on two nodes: those it leads). */
    void ledBy(org.topupbatch.cluster.AccountsLed accounts) {
        this.led = accounts;
    }

    @BindToRegistry("dueOrders")
    public DueOrders dueOrders() {
        return new DueOrders(journal.journal().tracking(), clock, webhooksSettle()).ledBy(led);
    }

    /** The same bean for both names: each order is followed at its own account (the one account's, with one). */
    @BindToRegistry("unknownOrderReconciliation")
    public org.topupbatch.track.AccountsTracking unknownOrderReconciliation() {
        return accountsTracking();
    }

    @BindToRegistry("pendingOrderPolling")
    public org.topupbatch.track.AccountsTracking pendingOrderPolling() {
        return accountsTracking();
    }

    private UnknownOrderReconciliation unknownAt(org.topupbatch.provider.ProviderGateway gateway, OrderHistorySearch history) {
        return new UnknownOrderReconciliation(gateway, history, trackedOrders(),
                journal.journal().reporting()::batch, clock, new OrderRequests(settings.guards().priceTolerance()));
    }

    private PendingOrderPolling pendingAt(org.topupbatch.provider.ProviderGateway gateway, OrderHistorySearch history) {
        return new PendingOrderPolling(gateway, history, trackedOrders(), new OrderRequests(settings.guards().priceTolerance()));
    }

    private org.topupbatch.track.AccountsTracking accountsTracking;

    private synchronized org.topupbatch.track.AccountsTracking accountsTracking() {
        if (accountsTracking == null) {
            java.util.Map<String, org.topupbatch.track.AccountsTracking.Account> each = new java.util.LinkedHashMap<>();
            for (String name : provider.accounts().keySet()) { // the one account of topup.base-url under null
                org.topupbatch.provider.ProviderGateway gateway = provider.gateway(name);
                OrderHistorySearch history = new OrderHistorySearch(gateway, trackedOrders(), clock);
                each.put(name, new org.topupbatch.track.AccountsTracking.Account(unknownAt(gateway, history),
                        pendingAt(gateway, history)));
            }
            accountsTracking = new org.topupbatch.track.AccountsTracking(each, trackedOrders(), led);
        }
        return accountsTracking;
    }

    @BindToRegistry("webhookReceiver")
    public WebhookReceiver webhookReceiver() throws Exception {
        WebhookReceiver receiver = new WebhookReceiver(journal.journal().tracking(), webhookAuthenticator(), namedWebhooks(), clock);
        camel.addService(receiver, true, true); // its last log summary at shutdown
        if (settings.webhook().enabled()) {
            namedWebhooks().forEach((name, a) -> LOG.info(
                    "Webhooks of account {} are taken at {}: {}", name, settings.webhook().accountPath(name),
                    a.verifies() ? "signed ones settle its orders" : "no webhook secret set, each is a hint"));
        }
        return receiver;
    }

    /**
     * A signed webhook settles an order, so a pending order's first look-up can wait for it: for an order
     * at an account whose webhook secret is set (an order of no account, with topup.providers set, has none).
     */
    private java.util.function.Predicate<org.topupbatch.journal.RowRecord> webhooksSettle() {
        if (!settings.webhook().enabled()) {
            return row -> false;
        }
        java.util.Map<String, WebhookAuthenticator> accounts = accountWebhooks();
        return row -> {
            WebhookAuthenticator at = accounts.get(row.account());
            return at != null && at.verifies();
        };
    }

    /**
     * The plain address's: the one account of topup.base-url's secret. With topup.providers the plain address
     * cannot tell whose signature a webhook carries: each is a hint there.
     */
    private synchronized WebhookAuthenticator webhookAuthenticator() {
        if (webhooks == null) {
            webhooks = accountWebhooks().getOrDefault(null, new WebhookAuthenticator(null, false));
        }
        return webhooks;
    }

    /** Each account's webhook secret, in its dialect (the one account of topup.base-url under null). */
    private synchronized java.util.Map<String, WebhookAuthenticator> accountWebhooks() {
        if (accountWebhooks == null) {
            accountWebhooks = new java.util.LinkedHashMap<>();
            provider.accounts().forEach((name, parts) -> accountWebhooks.put(name,
                    new WebhookAuthenticator(parts.account.webhookSecret(), "digiflazz".equals(parts.account.dialect()))));
        }
        return accountWebhooks;
    }

    /** The named accounts' webhooks, each taken at its own address topup.webhook.path/NAME. */
    private java.util.Map<String, WebhookAuthenticator> namedWebhooks() {
        java.util.Map<String, WebhookAuthenticator> named = new java.util.LinkedHashMap<>(accountWebhooks());
        named.remove(null);
        return named;
    }

    private synchronized TrackedOrders trackedOrders() {
        if (trackedOrders == null) {
            trackedOrders = new TrackedOrders(journal.journal().tracking(), clock, webhooksSettle());
        }
        return trackedOrders;
    }
}
