package org.topupbatch.cluster;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.function.Function;
import org.topupbatch.settings.JournalSettings;
import org.topupbatch.settings.SettingsException;

/**
 * The node's name ({@code topup.node-name}, default the host name): it names the node's journal
 * session in PostgreSQL, so that a standby can say who is active, and so it is kept short and plain.
 */
public final class NodeName {

    private NodeName() {
    }

    /**
     * The configured name ({@link JournalSettings#NODE_NAME}), or the host name when none is set.
     *
     * @throws SettingsException when the configured name is not a plain word of at most 40 characters
     */
    public static String resolve(Function<String, String> settings) {
        String configured = JournalSettings.NODE_NAME.read(settings);
        return configured != null ? configured : hostName();
    }

    private static String hostName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = System.getenv("HOSTNAME");
        }
        if (host == null || host.isBlank()) {
            return "node-" + ProcessHandle.current().pid();
        }
        String plain = host.replaceAll("[^A-Za-z0-9._-]", "-");
        int max = JournalSettings.NODE_NAME_MAX_LENGTH;
        return plain.length() > max ? plain.substring(0, max) : plain;
    }
}
