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
    private OrderHistorySearch historySearch;

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
        return new DueOrders(journal.journal(), clock, webhooksSettle()).ledBy(led);
    }

    /** With several accounts, the same bean for both names: each order is followed at its own account. */
    @BindToRegistry("unknownOrderReconciliation")
    public Object unknownOrderReconciliation() {
        return provider.severalAccounts() ? accountsTracking() : unknownAt(provider.gateway(null), historySearch());
    }

    @BindToRegistry("pendingOrderPolling")
    public Object pendingOrderPolling() {
        return provider.severalAccounts() ? accountsTracking() : pendingAt(provider.gateway(null), historySearch());
    }

    private UnknownOrderReconciliation unknownAt(org.topupbatch.provider.ProviderGateway gateway, OrderHistorySearch history) {
        return new UnknownOrderReconciliation(gateway, history, trackedOrders(),
                journal.journal()::batch, clock, new OrderRequests(settings.priceTolerance()));
    }

    private PendingOrderPolling pendingAt(org.topupbatch.provider.ProviderGateway gateway, OrderHistorySearch history) {
        return new PendingOrderPolling(gateway, history, trackedOrders(), new OrderRequests(settings.priceTolerance()));
    }

    private org.topupbatch.track.AccountsTracking accountsTracking;

    private synchronized org.topupbatch.track.AccountsTracking accountsTracking() {
        if (accountsTracking == null) {
            java.util.Map<String, org.topupbatch.track.AccountsTracking.Account> each = new java.util.LinkedHashMap<>();
            for (String name : provider.accounts().keySet()) {
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
        WebhookReceiver receiver = new WebhookReceiver(journal.journal(), webhookAuthenticator(), accountWebhooks(), clock);
        camel.addService(receiver, true, true); // its last log summary at shutdown
        if (settings.webhookEnabled() && provider.severalAccounts()) {
            accountWebhooks().forEach((name, a) -> LOG.info(
                    "Webhooks of account {} are taken at {}: {}", name, settings.accountWebhookPath(name),
                    a.verifies() ? "signed ones settle its orders" : "no webhook secret set, each is a hint"));
        }
        return receiver;
    }

    /**
     * A signed webhook settles an order, so a pending order's first look-up can wait for it: with one
     * account when its webhook secret is set, with several for an order at an account whose secret is.
     */
    private java.util.function.Predicate<org.topupbatch.journal.RowRecord> webhooksSettle() {
        if (!settings.webhookEnabled()) {
            return row -> false;
        }
        if (provider.severalAccounts()) {
            java.util.Map<String, WebhookAuthenticator> accounts = accountWebhooks();
            return row -> {
                WebhookAuthenticator at = accounts.get(row.account());
                return at != null && at.verifies();
            };
        }
        boolean settle = webhookAuthenticator().verifies();
        return row -> settle;
    }

    private synchronized WebhookAuthenticator webhookAuthenticator() {
        if (webhooks == null) {
            // several accounts: the plain address cannot tell whose signature a webhook carries; each is a hint there
            webhooks = provider.severalAccounts() ? new WebhookAuthenticator(null, false)
                    : new WebhookAuthenticator(provider.webhookSecret(), "digiflazz".equals(settings.dialect()));
        }
        return webhooks;
    }

    /** Several accounts: each one's webhook secret, in its dialect, for its own address (empty with one account). */
    private synchronized java.util.Map<String, WebhookAuthenticator> accountWebhooks() {
        if (accountWebhooks == null) {
            accountWebhooks = new java.util.LinkedHashMap<>();
            for (org.topupbatch.settings.ProviderAccount account : settings.accounts()) {
                accountWebhooks.put(account.name(),
                        new WebhookAuthenticator(account.webhookSecret(), "digiflazz".equals(account.dialect())));
            }
        }
        return accountWebhooks;
    }

    private synchronized TrackedOrders trackedOrders() {
        if (trackedOrders == null) {
            trackedOrders = new TrackedOrders(journal.journal(), clock, webhooksSettle());
        }
        return trackedOrders;
    }

    private synchronized OrderHistorySearch historySearch() {
        if (historySearch == null) {
            historySearch = new OrderHistorySearch(provider.gateway(null), trackedOrders(), clock);
        }
        return historySearch;
    }
}
