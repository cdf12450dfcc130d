package org.topupbatch.run;

import org.topupbatch.observe.InboxFolder;
import org.topupbatch.settings.FolderSettings;
import org.topupbatch.settings.IntakeSettings;
import org.topupbatch.settings.ManagementSettings;
import org.topupbatch.settings.PickUpSettings;
import org.topupbatch.settings.SftpSettings;
import org.topupbatch.settings.WebhookSettings;

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
 * running half-able: the reports folder can be written, and the webhook and management ports are free. (The
 * HTTP servers themselves start asynchronously and would only log a stack trace and go on.)
 */
public final class StartupPreflight {

    private StartupPreflight() {
    }

    /** @throws StartupRefusal naming the setting that stands in the way */
    public static void check(FolderSettings folders, PickUpSettings pickUp, SftpSettings sftp, WebhookSettings webhook,
            ManagementSettings management, IntakeSettings intake) {
        reportsWritable(folders.reports());
        if (sftp.inbox() == null) {
            // an SFTP inbox's local folder is the relay's to make (SftpWiring)
            inboxReadable(folders.inbox(), pickUp.mode() == PickUpSettings.Mode.ONCE);
        }
        if (webhook.enabled()) {
            webhookPortFree(webhook.host(), webhook.port());
        }
        if (management.enabled()) {
            managementPortFree(management.host(), management.port());
            managementCredentialed(management, intake);
        }
    }

    /**
     * Beyond loopback the management port's buttons and door would take anyone's request: without a
     * credential configured, the start is refused (docs/security.md).
     */
    public static void managementCredentialed(ManagementSettings management, IntakeSettings intake) {
        if (!org.topupbatch.observe.ManagementAccess.loopback(management.host())
                && !org.topupbatch.observe.ManagementAccess.credentialed(management, intake)) {
            throw new StartupRefusal("topup.management.host " + management.host() + " opens the dashboard, its"
                    + " buttons and the HTTP door beyond this machine, and no credential is set: set topup.intake.token"
                    + " (TOPUP_INTAKE_TOKEN) or topup.management.user and topup.management.password, or listen on 127.0.0.1");
        }
    }

    public static void reportsWritable(Path reports) {
        try {
            Files.createDirectories(reports);
            Path probe = Files.createTempFile(reports, ".topup-write-check-", ".tmp");
            Files.delete(probe);
        } catch (IOException | SecurityException e) {
            throw new StartupRefusal("topup.reports " + reports.toAbsolutePath() + " cannot be written ("
                    + reason(e) + "; set TOPUP_REPORTS to a folder this user may write)");
        }
    }

    /**
     * The inbox is never made on the fly (a typo would make an empty folder, and a nightly once run
     * would order nothing and report success), except the default relative {@code inbox} of a fresh
     * checkout. A once run with no usable inbox refuses; a watch run starts not ready (InboxHealthCheck,
     * and the inbox watch says it in one line) and takes files once the folder is there.
     */
    static void inboxReadable(Path inbox, boolean once) {
        if (InboxFolder.problem(inbox) != null && InboxFolder.mayBeCreated(inbox)) {
            try {
                Files.createDirectories(inbox);
            } catch (IOException | SecurityException e) {
                throw new StartupRefusal("topup.inbox " + inbox.toAbsolutePath() + " cannot be made (" + reason(e)
                        + "; set " + InboxFolder.SETTING + " to the folder the batches are dropped in)");
            }
        }
        String problem = InboxFolder.problem(inbox);
        if (problem != null && once) {
            throw new StartupRefusal("the inbox " + inbox.toAbsolutePath() + " takes no file: " + problem
                    + " (set " + InboxFolder.SETTING + " to the folder the batches are dropped in)");
        }
    }

    public static void webhookPortFree(String host, int port) {
        portFree(new Listener("topup.webhook", "TOPUP_WEBHOOK", "webhooks", "e.g. 0.0.0.0 for every interface"), host, port);
    }

    public static void managementPortFree(String host, int port) {
        portFree(new Listener("topup.management", "TOPUP_MANAGEMENT", "the dashboard", "e.g. 127.0.0.1 for this machine only"),
                host, port);
    }

    /** A server the product listens with: its settings' prefix, their environment prefix, and what port 0 turns off. */
    private record Listener(String key, String env, String what, String hostExample) {
    }

    private static void portFree(Listener l, String host, int port) {
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new StartupRefusal(l.key() + ".host '" + host + "' is not an address of this machine "
                    + "(set " + l.env() + "_HOST, " + l.hostExample() + ")");
        }
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true); // as the HTTP servers bind: a port in TIME_WAIT is free
            probe.bind(new InetSocketAddress(address, port), 1);
        } catch (BindException e) {
            String why = String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT);
            if (why.contains("in use")) {
                throw new StartupRefusal(l.key() + ".port " + port + " is already in use (another process listens "
                        + "there; set " + l.env() + "_PORT or 0 to turn " + l.what() + " off)");
            }
            throw new StartupRefusal(l.key() + ".port " + port + " on " + host + " cannot be listened on ("
                    + e.getMessage() + "; set " + l.env() + "_PORT and " + l.env() + "_HOST, or port 0 to turn "
                    + l.what() + " off)");
        } catch (IOException e) {
            throw new StartupRefusal(l.key() + ".port " + port + " on " + host + " cannot be listened on ("
                    + reason(e) + "; set " + l.env() + "_PORT, or 0 to turn " + l.what() + " off)");
        }
    }

    private static String reason(Exception e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
