package org.topupbatch.observe;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.topupbatch.settings.ManagementLogin;
import org.topupbatch.settings.IntakeSettings;
import org.topupbatch.settings.ManagementSettings;
import org.topupbatch.text.OneLine;

/**
 * Who may do what on the management port (docs/security.md), decided once per request before any route
 * sees it ({@link ManagementGuard}): the {@code Host} must name this server (a DNS-rebinding page's host
 * does not); a credential is asked for when one is configured ({@code Authorization: Bearer
 * <topup.intake.token>}, or HTTP basic with {@code topup.management.user}/{@code password}, or with the
 * token as the password); a state change must come from this origin and carry a header a page of another
 * site cannot send. {@code /observe/health} is always open, for probes.
 *
 * <p>Only real request headers are read: never a query parameter or a form field.
 */
public final class ManagementAccess {

    /** The header the dashboard's buttons and upload send; another site's page cannot send it without asking (CORS). */
    public static final String CONFIRM = "X-Topup-Confirm";
    static final String HEALTH = "/observe/health";
    static final String METRICS = "/observe/metrics";
    private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");
    private static final Set<String> LOOPBACK_NAMES = Set.of("127.0.0.1", "localhost", "[::1]");

    /** Why a request is refused: its status, the one line it is answered with, and whether to ask for a login. */
    public record Refusal(int status, String message, boolean challenge) {
    }

    private final String token;
    private final ManagementLogin login;
    private final String boundHost;
    private final int port;

    /**
     * @param token     {@code topup.intake.token}, or null
     * @param boundHost {@code topup.management.host}: a concrete address names this server too
     */
    public ManagementAccess(String token, ManagementLogin login, String boundHost, int port) {
        this.token = token;
        this.login = login;
        this.boundHost = boundHost == null ? "" : boundHost.toLowerCase(Locale.ROOT);
        this.port = port;
    }

    public static ManagementAccess of(ManagementSettings management, IntakeSettings intake) {
        return new ManagementAccess(intake.token(), management.login(), management.host(), management.port());
    }

    /** Whether {@code host} (a {@code topup.management.host}) listens on this machine only. */
    public static boolean loopback(String host) {
        String h = host.trim().toLowerCase(Locale.ROOT);
        return h.equals("localhost") || h.equals("::1") || h.equals("[::1]") || h.matches("127(\\.\\d{1,3}){3}");
    }

    /** Whether a credential is configured: without one the port may listen on loopback only (StartupPreflight). */
    public static boolean credentialed(ManagementSettings management, IntakeSettings intake) {
        return intake.token() != null || management.login().hasUser();
    }

    /**
     * The refusal of this request, or empty when it may go on to its route.
     *
     * @param header a real request header by name (case-insensitive), null when absent
     */
    public Optional<Refusal> check(String method, String path, Function<String, String> header) {
        return check(method, path, null, header);
    }

    /**
     * As {@link #check(String, String, Function)}, with the request's query string: health is open to a
     * probe's plain request only. Camel's health answers {@code ?exposureLevel=full} with every check's
     * details (the node, the inbox folder, route ids), which are the management port's, not a probe's.
     */
    public Optional<Refusal> check(String method, String path, String query, Function<String, String> header) {
        if ((path.equals(HEALTH) || path.startsWith(HEALTH + "/")) && (query == null || query.isEmpty())) {
            return Optional.empty();
        }
        String host = header.apply("Host");
        if (host == null || !namesThisServer(host.trim().toLowerCase(Locale.ROOT))) {
            return refuse(403, "the Host " + shown(host) + " does not name this server: use 127.0.0.1 or localhost,"
                    + " or add the name to topup.management.allowed-hosts");
        }
        boolean bearer = false;
        boolean open = path.equals(METRICS) && login.metricsOpen();
        if ((token != null || login.hasUser()) && !open) {
            Credential given = credential(header.apply("Authorization"));
            if (given == Credential.NONE) {
                return Optional.of(new Refusal(401, "a missing or wrong token or login: send Authorization: Bearer"
                        + " <topup.intake.token>, or log in", true));
            }
            bearer = given == Credential.BEARER;
        }
        if (READS.contains(method.toUpperCase(Locale.ROOT))) {
            return Optional.empty();
        }
        String site = header.apply("Sec-Fetch-Site");
        if (site != null && !site.equalsIgnoreCase("same-origin") && !site.equalsIgnoreCase("none")) {
            return refuse(403, "a request from another site (Sec-Fetch-Site: " + shown(site) + ") changes nothing here");
        }
        String origin = header.apply("Origin");
        if (origin != null && !sameOrigin(origin.trim(), host.trim())) {
            return refuse(403, "a request from another origin (" + shown(origin) + ") changes nothing here");
        }
        String confirm = header.apply(CONFIRM);
        if (!bearer && (confirm == null || confirm.isBlank())) {
            return refuse(403, "not confirmed: send the request header " + CONFIRM + " (the dashboard does),"
                    + " or Authorization: Bearer <topup.intake.token>");
        }
        return Optional.empty();
    }

    private enum Credential { NONE, BEARER, BASIC }

    private Credential credential(String authorization) {
        if (authorization == null) {
            return Credential.NONE;
        }
        String a = authorization.trim();
        String scheme = a.contains(" ") ? a.substring(0, a.indexOf(' ')).toLowerCase(Locale.ROOT) : "";
        String value = a.substring(scheme.length()).trim();
        if (scheme.equals("bearer") && token != null && same(value, token)) {
            return Credential.BEARER;
        }
        if (scheme.equals("basic")) {
            String pair;
            try {
                pair = new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException notBase64) {
                return Credential.NONE;
            }
            int colon = pair.indexOf(':');
            if (colon < 0) {
                return Credential.NONE;
            }
            String user = pair.substring(0, colon);
            String password = pair.substring(colon + 1);
            // both compared whatever the first gives, in constant time: the timing tells nothing
            boolean asUser = login.hasUser() & same(user, login.user()) & same(password, login.password());
            boolean asToken = token != null && same(password, token);
            return asUser || asToken ? Credential.BASIC : Credential.NONE;
        }
        return Credential.NONE;
    }

    private static boolean same(String given, String expected) {
        return expected != null && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8),
                expected.getBytes(StandardCharsets.UTF_8));
    }

    /** A loopback name (with this port, or none), the bound address, or one of topup.management.allowed-hosts. */
    private boolean namesThisServer(String host) {
        int colon = host.lastIndexOf(':');
        boolean hasPort = colon > host.lastIndexOf(']');
        String name = hasPort ? host.substring(0, colon) : host;
        String portPart = hasPort ? host.substring(colon + 1) : null;
        boolean ourPort = portPart == null || portPart.equals(Integer.toString(port));
        if (LOOPBACK_NAMES.contains(name) || (!boundHost.isEmpty() && !boundHost.equals("0.0.0.0")
                && !boundHost.equals("::") && name.equals(boundHost))) {
            return ourPort;
        }
        return login.allowedHosts().contains(name) || login.allowedHosts().contains(host);
    }

    /** The Origin's scheme-less authority is the Host (default ports left out on both sides). */
    private static boolean sameOrigin(String origin, String host) {
        URI uri;
        try {
            uri = URI.create(origin);
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (uri.getScheme() == null || uri.getRawAuthority() == null) {
            return false; // "null" (a sandboxed frame, a file) and anything else that names no origin
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        String authority = uri.getRawAuthority().toLowerCase(Locale.ROOT);
        String defaultPort = scheme.equals("https") ? ":443" : scheme.equals("http") ? ":80" : null;
        String h = host.toLowerCase(Locale.ROOT);
        if (defaultPort != null) {
            authority = authority.endsWith(defaultPort) ? authority.substring(0, authority.length() - defaultPort.length()) : authority;
            h = h.endsWith(defaultPort) ? h.substring(0, h.length() - defaultPort.length()) : h;
        }
        return authority.equals(h);
    }

    private static Optional<Refusal> refuse(int status, String message) {
        return Optional.of(new Refusal(status, message, false));
    }

    private static String shown(String value) {
        return value == null ? "(none)" : "'" + OneLine.of(value, 80) + "'";
    }
}
