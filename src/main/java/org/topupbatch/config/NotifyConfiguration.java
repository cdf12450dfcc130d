package org.topupbatch.config;

import org.apache.camel.BindToRegistry;
import org.topupbatch.notify.Notifications;
import org.topupbatch.settings.Settings;

/**
 * Notifications (routes/notify.yaml, docs/operating.md#notifications): the one {@link Notifications} that
 * every area tells its events to, delivering to the endpoints of {@code topup.notify.uris}.
 */
public final class NotifyConfiguration extends AreaConfiguration {

    private final Settings settings;
    private Notifications notifications;

    public NotifyConfiguration(Settings settings) {
        this.settings = settings;
    }

    @BindToRegistry("notifications")
    public synchronized Notifications notifications() {
        if (notifications == null) {
            notifications = new Notifications(settings.notifications().uris(), camel.createProducerTemplate());
        }
        return notifications;
    }
}
