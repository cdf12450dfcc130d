package org.topupbatch.sandbox;

import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;

/**
 * The sandbox as a standalone server: {@code [--port N] [--host H]}; knobs from system properties
 * {@code topup.sandbox.*} or the matching environment variables ({@code TOPUP_SANDBOX_*}).
 */
public final class SandboxMain {

    static final int DEFAULT_PORT = 8090;
    static final String DEFAULT_HOST = "127.0.0.1";

    private SandboxMain() {
    }

    public static void main(String[] args) {
        int port = DEFAULT_PORT;
        String host = DEFAULT_HOST;
        SandboxConfig config;
        try {
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                if (arg.equals("--port") || arg.equals("--host")) {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException(arg + " needs a value");
                    }
                    String value = args[++i];
                    if (arg.equals("--port")) {
                        port = parsePort(value);
                    } else {
                        host = value;
                    }
                } else if (arg.startsWith("--port=")) {
                    port = parsePort(arg.substring("--port=".length()));
                } else if (arg.startsWith("--host=")) {
                    host = arg.substring("--host=".length());
                } else {
                    throw new IllegalArgumentException("unknown argument '" + arg + "' (usage: sandbox [--port N] [--host H])");
                }
            }
            config = SandboxConfig.fromLookup(SandboxMain::lookup);
        } catch (IllegalArgumentException e) {
            System.err.println("sandbox: " + e.getMessage());
            System.exit(2);
            return;
        }
        SandboxProvider provider;
        try {
            provider = SandboxProvider.start(config, host, port);
        } catch (RuntimeException e) {
            System.err.println("sandbox: cannot start on " + host + ":" + port + ": "
                    + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()));
            System.exit(2);
            return;
        }
        String shownHost = host.contains(":") ? "[" + host + "]" : host;
        // Digiflazz's key is a secret (only md5 signs carry it): that dialect shows the username instead
        String account = config.dialect() == SandboxDialect.DIGIFLAZZ
                ? "digiflazz, username " + config.username() : "api_key " + config.apiKey();
        System.out.println("Sandbox provider listening on http://" + shownHost + ":" + provider.port()
                + " (" + account + ")");
        System.out.flush();
        try {
            // the server's threads are daemons; this thread keeps the process alive until it is killed
            new CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            provider.close();
        }
    }

    private static int parsePort(String value) {
        try {
            int port = Integer.parseInt(value.trim());
            if (port < 0 || port > 65535) {
                throw new NumberFormatException();
            }
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--port must be a number from 0 to 65535, got '" + value + "'");
        }
    }

    /** System property first, then the environment variable named after the key. */
    static String lookup(String key) {
        String value = System.getProperty(key);
        return value != null ? value : System.getenv(envName(key));
    }

    static String envName(String key) {
        return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** For tests: the lookup chain over a given environment. */
    static Function<String, String> lookup(Function<String, String> properties, Function<String, String> env) {
        return key -> {
            String value = properties.apply(key);
            return value != null ? value : env.apply(envName(key));
        };
    }
}
