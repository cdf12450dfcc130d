package org.topupbatch.app;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a run checks before anything starts, so that it fails closed with one line instead of
 * running half-able: the reports folder can be written, and the webhook port is free. (The
 * webhook server itself starts asynchronously and would only log a stack trace and go on polling.)
 */
final class StartupPreflight {

    private StartupPreflight() {
    }

    /** @throws StartupRefusal naming the setting that stands in the way */
    static void check(Settings settings) {
        reportsWritable(settings.reports());
        if (settings.webhookEnabled()) {
            webhookPortFree(settings.webhookHost(), settings.webhookPort());
        }
    }

    static void reportsWritable(Path reports) {
        try {
            Files.createDirectories(reports);
            Path probe = Files.createTempFile(reports, ".topup-write-check-", ".tmp");
            Files.delete(probe);
        } catch (IOException | SecurityException e) {
            throw new StartupRefusal("topup.reports " + reports.toAbsolutePath() + " cannot be written ("
                    + reason(e) + "; set TOPUP_REPORTS to a folder this user may write)");
        }
    }

    static void webhookPortFree(String host, int port) {
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new StartupRefusal("topup.webhook.host '" + host + "' is not an address of this machine "
                    + "(set TOPUP_WEBHOOK_HOST, e.g. 0.0.0.0 for every interface)");
        }
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true); // as the webhook server binds: a port in TIME_WAIT is free
            probe.bind(new InetSocketAddress(address, port), 1);
        } catch (BindException e) {
            String why = String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT);
            if (why.contains("in use")) {
                throw new StartupRefusal("topup.webhook.port " + port + " is already in use (another process listens "
                        + "there; set TOPUP_WEBHOOK_PORT or 0 to turn webhooks off)");
            }
            throw new StartupRefusal("topup.webhook.port " + port + " on " + host + " cannot be listened on ("
                    + e.getMessage() + "; set TOPUP_WEBHOOK_PORT and TOPUP_WEBHOOK_HOST, or port 0 to turn webhooks off)");
        } catch (IOException e) {
            throw new StartupRefusal("topup.webhook.port " + port + " on " + host + " cannot be listened on ("
                    + reason(e) + "; set TOPUP_WEBHOOK_PORT, or 0 to turn webhooks off)");
        }
    }

    private static String reason(Exception e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
