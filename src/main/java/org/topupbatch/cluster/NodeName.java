package org.topupbatch.cluster;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.topupbatch.settings.SettingsException;

/**
 * The node's name ({@code topup.node-name}, default the host name): it names the node's journal
 * session in PostgreSQL, so that a standby can say who is active, and so it is kept short and plain.
 */
public final class NodeName {

    static final String SETTING = "topup.node-name";
    /** PostgreSQL keeps 63 bytes of a session's name, and the session's name is prefixed. */
    static final int MAX_LENGTH = 40;
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    private NodeName() {
    }

    /**
     * The configured name, or the host name when none is set.
     *
     * @throws SettingsException when the configured name is not a plain word of at most 40 characters
     */
    public static String resolve(Function<String, String> settings) {
        String configured = settings.apply(SETTING);
        if (configured == null || configured.isBlank()) {
            return hostName();
        }
        String name = configured.trim();
        if (name.length() > MAX_LENGTH || !PLAIN.matcher(name).matches()) {
            throw new SettingsException(SETTING + " '" + name + "' must be 1 to " + MAX_LENGTH
                    + " letters, digits, '.', '_' or '-' (set TOPUP_NODE_NAME, e.g. topup-a)");
        }
        return name;
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
        return plain.length() > MAX_LENGTH ? plain.substring(0, MAX_LENGTH) : plain;
    }
}
