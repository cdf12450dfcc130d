package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.Poll;

/**
 * The management port's one authentication and its request-forgery checks on the built jar
 * (docs/security.md, issue 35): with a token and a login set, every management route refuses no
 * credential and a wrong one and takes the bearer token and the login, and health stays open; with the
 * defaults (no credential, loopback), a cross-site form and a DNS-rebinding page (Host and Origin an
 * attacker's name that resolves to 127.0.0.1) cancel nothing and order nothing; beyond loopback without
 * a credential the start is refused with one line.
 *
 * <p>Requests go out over a plain socket, byte for byte as a browser under attack would send them
 * (Java's HTTP client may not set {@code Host}).
 */
class ManagementAuthE2ETest {

    static final String TOKEN = "mgmt-token-5c1e7a";
    static final String USER = "operator";
    static final String PASSWORD = "pw-9d2b-secret";

    // answers slow enough that a batch of 200 rows is still running while it is attacked
    @RegisterExtension
    final ProductFixture product = ProductFixture.on(() -> SandboxConfig.defaults()
            .setLatency(DurationRange.of(Duration.ofMillis(300), Duration.ofMillis(400))))
            .env("TOPUP_MODE", "watch").env("TOPUP_WEBHOOK_PORT", "0").env("TOPUP_SUBMIT_CONCURRENCY", "1");
    final Path home = product.home();
    final SandboxProvider sandbox = product.sandbox();
    final JarRun run = product.run();

    @Test
    void every_management_route_asks_for_the_token_or_the_login_and_health_stays_open() throws Exception {
        run.env.put("TOPUP_INTAKE_TOKEN", TOKEN);
        run.env.put("TOPUP_MANAGEMENT_USER", USER);
        run.env.put("TOPUP_MANAGEMENT_PASSWORD", PASSWORD);
        run.start();
        // from the first moment the port listens, not only once the routes are up: metrics asked all along
        java.util.Set<Integer> early = new java.util.TreeSet<>();
        Poll.until("the ready line", Duration.ofSeconds(90), () -> {
            try {
                early.add(send("GET", "/observe/metrics", Map.of()).status());
            } catch (IOException notListeningYet) {
                // the port opens after the start-up checks (or closed a connection it was still setting up)
            }
            return run.output();
        }, output -> output.contains("Ready:"), run::output);
        assertThat(early).as("metrics without a credential while starting").isNotEmpty().containsOnly(401);

        // each route with what it answers once let in: a page, data, or its own one-line refusal (no batch 999)
        Map<String, Integer> routes = new LinkedHashMap<>();
        routes.put("GET /", 200);
        routes.put("GET /dashboard.json", 200);
        routes.put("GET /observe/metrics", 200);
        routes.put("GET /batches/999", 404);
        routes.put("GET /batches/999/report", 404);
        routes.put("POST /batches?name=empty.csv", 400);
        routes.put("POST /batches/preview?name=empty.csv", 400);
        routes.put("POST /batches/999/hold", 404);
        routes.put("POST /batches/999/resume", 404);
        routes.put("POST /batches/999/cancel", 404);
        String wrongLogin = basic(USER, "guess");
        for (Map.Entry<String, Integer> route : routes.entrySet()) {
            String method = route.getKey().split(" ")[0];
            String path = route.getKey().split(" ")[1];
            Map<String, String> confirm = confirmation(path);
            Answer none = send(method, path, confirm);
            assertThat(none.status()).as(route.getKey() + " without a credential: " + none).isEqualTo(401);
            assertThat(none.head()).as(route.getKey()).containsIgnoringCase("WWW-Authenticate: Basic realm=\"topup-batch\"");
            assertThat(none.body()).contains("missing or wrong token");
            assertThat(send(method, path, with(confirm, "Authorization", "Bearer guess")).status())
                    .as(route.getKey() + " with a wrong token").isEqualTo(401);
            assertThat(send(method, path, with(confirm, "Authorization", wrongLogin)).status())
                    .as(route.getKey() + " with a wrong password").isEqualTo(401);
            Answer bearer = send(method, path, with(confirm, "Authorization", "Bearer " + TOKEN));
            assertThat(bearer.status()).as(route.getKey() + " with the token: " + bearer).isEqualTo(route.getValue());
            Answer login = send(method, path, with(confirm, "Authorization", basic(USER, PASSWORD)));
            assertThat(login.status()).as(route.getKey() + " with the login: " + login).isEqualTo(route.getValue());
        }
        assertThat(send("GET", "/", Map.of("Authorization", basic("anyone", TOKEN))).status())
                .as("the token as a browser's password").isEqualTo(200);
        assertThat(send("GET", "/batches/999", Map.of("Authorization", "Bearer " + TOKEN)).body())
                .as("the route's own answer behind the guard").contains("no batch 999");

        Answer health = send("GET", "/observe/health", Map.of());
        assertThat(health.status()).as("health is open for probes: " + health).isIn(200, 503);
        assertThat(health.body()).contains("\"status\"");

        // a page of another site, the login cached in the browser: the browser sends it along, the guard says no
        Answer forged = send("POST", "/batches/999/cancel", Map.of("Authorization", basic(USER, PASSWORD),
                "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site",
                "Content-Type", "application/x-www-form-urlencoded"), "X-Topup-Confirm=cancel");
        assertThat(forged.status()).as(forged.toString()).isEqualTo(403);
        assertThat(forged.body()).contains("another site");

        assertThat(run.output()).doesNotContain(TOKEN).doesNotContain(PASSWORD);
        StartupRefusalE2ETest.assertNoStackTrace(run.output());
    }

    @Test
    void a_cross_site_form_and_a_rebinding_page_cancel_nothing_and_order_nothing() throws Exception {
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no\n");
        for (int i = 1; i <= 200; i++) {
            csv.append("RUN-").append(i).append(",FF100,3120").append(1000 + i).append('\n');
        }
        run.drop("running.csv", csv.toString());
        run.start();
        StartupRefusalE2ETest.awaitOutput(run, "Ready:");
        long id = Poll.until("the batch on the dashboard", Duration.ofSeconds(60), () -> batchId("running.csv"),
                found -> found > 0, run::output);
        String cancel = "/batches/" + id + "/cancel";
        String evil = "evil.example:" + port();
        String forgedCsv = "ref_id,product_sku,customer_no\nFORGED-1,FF100,31299999\n";

        List<Answer> refused = List.of(
                // a plain HTML form on another site: the confirmation as a form field, the browser's own headers
                send("POST", cancel, Map.of("Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site",
                        "Content-Type", "application/x-www-form-urlencoded"), "X-Topup-Confirm=cancel"),
                // the same form from a browser that sends neither Origin nor Sec-Fetch-Site
                send("POST", cancel, Map.of("Content-Type", "application/x-www-form-urlencoded"), "X-Topup-Confirm=cancel"),
                // the confirmation as a query parameter
                send("POST", cancel + "?X-Topup-Confirm=cancel", Map.of()),
                // DNS rebinding: the attacker's page is same-origin with itself, so it may send any header
                send("POST", cancel, Map.of("Host", evil, "Origin", "http://" + evil, "X-Topup-Confirm", "cancel")),
                send("POST", "/batches?name=forged.csv", Map.of("Host", evil, "Origin", "http://" + evil,
                        "X-Topup-Confirm", "order", "Content-Type", "text/csv"), forgedCsv),
                send("POST", "/batches?name=forged.csv&X-Topup-Confirm=order", Map.of("Origin", "https://evil.example",
                        "Sec-Fetch-Site", "cross-site", "Content-Type", "text/plain"), forgedCsv),
                // and rebinding reads: the dashboard's data is not for another site either
                send("GET", "/dashboard.json", Map.of("Host", evil)),
                send("GET", "/batches/" + id, Map.of("Host", evil)));
        assertThat(refused).allSatisfy(a -> assertThat(a.status()).as(a.toString()).isEqualTo(403));
        assertThat(refused.get(3).body()).contains("does not name this server").contains("topup.management.allowed-hosts");
        assertThat(run.inbox.resolve("forged.csv")).as("nothing put into the inbox").doesNotExist();

        // a button takes no body: a form's, even with the header, is not a button's request
        Answer formBody = send("POST", cancel, Map.of("X-Topup-Confirm", "cancel",
                "Content-Type", "application/x-www-form-urlencoded"), "X-Topup-Confirm=cancel");
        assertThat(formBody.status()).as(formBody.toString()).isEqualTo(415);

        // the page's own request goes through: and finds the batch not cancelled by any of the above
        Answer own = send("POST", cancel, Map.of("Origin", "http://127.0.0.1:" + port(), "Sec-Fetch-Site", "same-origin",
                "X-Topup-Confirm", "cancel"));
        assertThat(own.status()).as(own.toString()).isEqualTo(200);
        assertThat(own.body()).contains("\"changed\":true").contains("is cancelled:");
        assertThat(sandbox.ledger()).as("no forged order").noneMatch(e -> e.refId().startsWith("FORGED"));
        assertThat(send("GET", "/dashboard.json", Map.of()).body()).doesNotContain("forged.csv");
        StartupRefusalE2ETest.assertNoStackTrace(run.output());
    }

    @Test
    void beyond_loopback_without_a_credential_the_start_is_refused_with_one_line() throws Exception {
        run.env.put("TOPUP_MANAGEMENT_HOST", "0.0.0.0");
        run.drop("waiting.csv", "ref_id,product_sku,customer_no\nW-1,FF100,31234567\n");
        assertThat(run.runOnce(Duration.ofMinutes(1))).as(run.output()).isEqualTo(1);
        List<String> lines = run.output().lines().filter(l -> l.contains("topup.management.host")).toList();
        assertThat(lines).as(run.output()).singleElement().asString()
                .contains("topup-batch cannot start: topup.management.host 0.0.0.0")
                .contains("set topup.intake.token (TOPUP_INTAKE_TOKEN) or topup.management.user and topup.management.password");
        StartupRefusalE2ETest.assertNoStackTrace(run.output());
        assertThat(sandbox.ledger()).as("nothing ordered").isEmpty();
        assertThat(run.inbox.resolve("waiting.csv")).as("nothing is lost: the file waits").exists();
    }

    private int port() {
        return Integer.parseInt(run.env.get("TOPUP_MANAGEMENT_PORT"));
    }

    /** The id of the batch of this file on the dashboard (as the operator's own page reads it), or 0. */
    private long batchId(String file) {
        try {
            Matcher m = Pattern.compile("\\{\"id\":(\\d+),[^{}]*\"file\":\"" + Pattern.quote(file) + "\"")
                    .matcher(send("GET", "/dashboard.json", Map.of()).body());
            return m.find() ? Long.parseLong(m.group(1)) : 0;
        } catch (IOException notYet) {
            return 0;
        }
    }

    /** What the page sends with a button or an upload: the header another site cannot send. */
    private static Map<String, String> confirmation(String path) {
        String last = path.replaceFirst("\\?.*", "").replaceFirst(".*/", "");
        return switch (last) {
            case "hold", "resume", "cancel" -> Map.of("X-Topup-Confirm", last);
            case "batches", "preview" -> Map.of("X-Topup-Confirm", "order");
            default -> Map.of();
        };
    }

    private static Map<String, String> with(Map<String, String> headers, String name, String value) {
        Map<String, String> all = new LinkedHashMap<>(headers);
        all.put(name, value);
        return all;
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    record Answer(int status, String head, String body) {
    }

    private Answer send(String method, String path, Map<String, String> headers) throws IOException {
        return send(method, path, headers, "");
    }

    /** One HTTP/1.1 request over a socket to the management port, its Host 127.0.0.1:PORT unless given. */
    private Answer send(String method, String path, Map<String, String> headers, String body) throws IOException {
        byte[] content = body.getBytes(StandardCharsets.UTF_8);
        StringBuilder request = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n");
        if (!headers.containsKey("Host")) {
            request.append("Host: 127.0.0.1:").append(port()).append("\r\n");
        }
        headers.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
        request.append("Content-Length: ").append(content.length).append("\r\nConnection: close\r\n\r\n");
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port())) {
            socket.setSoTimeout(90_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(content);
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            in.transferTo(answer);
            String text = answer.toString(StandardCharsets.UTF_8);
            if (text.isEmpty()) {
                // closed before a byte came back: in the server's first milliseconds Vert.x may drop a
                // connection it has not finished setting up; nothing was answered, so nothing leaked
                throw new java.io.EOFException("closed without an answer to " + method + " " + path);
            }
            int split = text.indexOf("\r\n\r\n");
            String head = split < 0 ? text : text.substring(0, split);
            Matcher status = Pattern.compile("^HTTP/1\\.1 (\\d{3})").matcher(head);
            if (!status.find()) {
                throw new AssertionError("no HTTP answer to " + method + " " + path + ": " + text);
            }
            return new Answer(Integer.parseInt(status.group(1)), head, split < 0 ? "" : text.substring(split + 4));
        }
    }
}
