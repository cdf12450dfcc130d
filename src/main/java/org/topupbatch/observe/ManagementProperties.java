package org.topupbatch.observe;

import java.util.LinkedHashMap;
import java.util.Map;
import org.topupbatch.settings.ManagementSettings;

/**
 * The Camel Main properties that switch Camel's own management server on at
 * {@code topup.management.host:port}: readiness at /observe/health and Prometheus text at
 * /observe/metrics (camel-micrometer-prometheus). The dashboard's routes join the same server
 * through {@link ManagementHttp}.
 */
public final class ManagementProperties {

    private ManagementProperties() {
    }

    public static Map<String, String> of(ManagementSettings management) {
        Map<String, String> p = new LinkedHashMap<>();
        boolean on = management.enabled();
        p.put("camel.management.enabled", Boolean.toString(on));
        p.put("camel.management.host", management.host());
        p.put("camel.management.port", Integer.toString(management.port()));
        p.put("camel.management.health-check-enabled", Boolean.toString(on));
        p.put("camel.management.metrics-enabled", Boolean.toString(on));
        p.put("camel.metrics.enabled", Boolean.toString(on));
        // Camel's per-exchange and per-route meters would bury the topup_ ones: the route figures
        // that matter to an operator are the orders and calls, which topup_ metrics count directly.
        p.put("camel.metrics.enable-exchange-event-notifier", "false");
        p.put("camel.metrics.enable-route-event-notifier", "false");
        p.put("camel.metrics.enable-route-policy", "false");
        return p;
    }
}
