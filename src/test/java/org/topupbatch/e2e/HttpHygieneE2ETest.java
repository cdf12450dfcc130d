package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.Poll;
import org.topupbatch.testing.TestedBlocks;

/**
 * Header hygiene, security headers, one-line errors and the door's formats on the built jar
 * (docs/security.md "Headers, errors and logs", docs/erp-doors.md "The HTTP door for ERPs"): nothing a request
 * carries (query parameter, form field) comes back as a response header or passes for a request
 * header (a cross-site form's {@code X-Topup-Confirm=cancel} field cancels nothing), every answer
 * of both ports carries the security headers, CR/LF/NUL/ESC in webhook queries and bodies, door
 * names, headers and CSV cells leave no raw control character, forged line or stack trace in the
 * log, and the door's curl commands of docs/erp-doors.md run as printed: the form-typed and the multipart upload order
 * the file once; a workbook comes form-typed, multipart or as octets alike.
 */
class HttpHygieneE2ETest {

    static final String TOKEN = "hygiene-door-token-5d1e";
    static final String SAMPLE = "orders-2026-11-21.csv";
    /** What a forged log line would start with, were a CR/LF let through raw. */
    static final String FORGED = "17:00:00.000 INFO  RunMonitor forged";

    // answers slow enough that a batch is still running while the buttons are tried
    @RegisterExtension
    final ProductFixture product = ProductFixture.on(() -> SandboxConfig.defaults()
            .setLatency(DurationRange.of(Duration.ofMillis(300), Duration.ofMillis(400))))
            .env("TOPUP_MODE", "watch").env("TOPUP_SUBMIT_CONCURRENCY", "1").env("TOPUP_INTAKE_MAX_BYTES", "65536");
    final Path home = product.home();
    final SandboxProvider sandbox = product.sandbox();
    final JarRun run = product.run();
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void nothing_a_request_carries_reaches_the_answer_or_decides_an_action_and_every_answer_has_the_security_headers()
            throws Exception {
        startAndAwaitReady();
        run.drop("buttons.csv", "ref_id,product_sku,customer_no\n" + "BT-1,FF100,31234567\nBT-2,FF100,31234568\n"
                + "BT-3,FF100,31234569\nBT-4,FF100,31234570\n");
        long id = 1;
        Poll.until("the dropped batch", Duration.ofSeconds(60), () -> send(get(management("/batches/1"))).statusCode(),
                code -> code == 200, run::output);

        String reflect = "?Access-Control-Allow-Origin=*&Set-Cookie=pwn%3D1";
        HttpResponse<String> data = send(get(management("/dashboard.json" + reflect)));
        assertThat(data.statusCode()).isEqualTo(200);
        assertNotReflected(data.headers());
        assertSecurityHeaders(data.headers(), true);
        HttpResponse<String> webhook = send(HttpRequest.newBuilder(URI.create(webhook("/webhook" + reflect)))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("Set-Cookie=pwn%3D2&Access-Control-Allow-Origin=*")));
        assertThat(webhook.statusCode()).as(webhook.body()).isEqualTo(200);
        assertNotReflected(webhook.headers());
        assertSecurityHeaders(webhook.headers(), true);

        HttpResponse<String> page = send(get(management("/")));
        assertSecurityHeaders(page.headers(), false);
        assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
                .contains("script-src 'sha256-").doesNotContain("unsafe-inline");
        assertSecurityHeaders(send(get(management("/batches/" + id))).headers(), true);
        assertSecurityHeaders(send(get(management("/batches/" + id + "/report"))).headers(), true);
        assertSecurityHeaders(send(get(management("/observe/health"))).headers(), true);

        // a cross-site form: the confirmation as a form field, or in the query, decides nothing
        HttpResponse<String> form = send(HttpRequest.newBuilder(URI.create(management("/batches/" + id + "/cancel")))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Origin", "http://evil.example")
                .POST(HttpRequest.BodyPublishers.ofString("X-Topup-Confirm=cancel")));
        assertThat(form.statusCode()).as(form.body()).isEqualTo(403);
        HttpResponse<String> query = send(HttpRequest.newBuilder(URI.create(management("/batches/" + id
                + "/cancel?X-Topup-Confirm=cancel"))).POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(query.statusCode()).as(query.body()).isEqualTo(403);
        assertThat(run.output()).doesNotContain("was cancelled");
        // nor does a form field or header named like the door's query parameter give a file's name
        HttpResponse<String> named = send(HttpRequest.newBuilder(URI.create(management("/batches")))
                .header("X-Topup-Confirm", "order").header("name", "by-header.csv")
                .POST(HttpRequest.BodyPublishers.ofString("ref_id,product_sku,customer_no\nN-1,FF100,31234567\n")));
        assertThat(named.statusCode()).as(named.body()).isEqualTo(400);

        // the real header still works
        HttpResponse<String> hold = send(HttpRequest.newBuilder(URI.create(management("/batches/" + id + "/hold")))
                .header("X-Topup-Confirm", "hold").POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(hold.statusCode()).as(hold.body()).isEqualTo(200);
        HttpResponse<String> resume = send(HttpRequest.newBuilder(URI.create(management("/batches/" + id + "/resume")))
                .header("X-Topup-Confirm", "resume").POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(resume.statusCode()).as(resume.body()).isEqualTo(200);
        assertThat(progress(id).get("state").asText()).isNotEqualTo("cancelled");

        // the page's command without a token, run as printed (the port aside)
        String printed = readmeDoorCommands().stream().filter(c -> c.contains("X-Topup-Confirm")).findFirst()
                .orElseThrow(() -> new AssertionError("docs/erp-doors.md's door shows no command without a token"));
        assertThat(batchOf(curl(printed, sampleFolder(), Map.of())).get("file").asText()).isEqualTo(SAMPLE);
        assertCleanLog();
    }

    @Test
    void the_webhook_port_keeps_its_header_hygiene_with_the_management_port_off() throws Exception {
        run.env.put("TOPUP_MANAGEMENT_PORT", "0");
        startAndAwaitReady();
        HttpResponse<String> webhook = send(HttpRequest.newBuilder(
                URI.create(webhook("/webhook?Access-Control-Allow-Origin=*&Set-Cookie=pwn%3D1")))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("Set-Cookie=pwn%3D2&Access-Control-Allow-Origin=*")));
        assertThat(webhook.statusCode()).as(webhook.body()).isEqualTo(200);
        assertNotReflected(webhook.headers());
        assertSecurityHeaders(webhook.headers(), true);
    }

    @Test
    void bad_input_answers_4xx_and_leaves_one_escaped_line_and_no_trace_in_the_log() throws Exception {
        startAndAwaitReady();
        String crlf = "%0d%0a" + FORGED.replace(" ", "%20");
        HttpResponse<String> query = send(HttpRequest.newBuilder(URI.create(webhook("/webhook?a=" + crlf)))
                .POST(HttpRequest.BodyPublishers.ofString("x")));
        // a webhook is answered 200 whatever it holds (docs/provider.md), and is ignored
        assertThat(query.statusCode()).as(query.body()).isEqualTo(200);
        HttpResponse<String> body = send(HttpRequest.newBuilder(URI.create(webhook("/webhook")))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"event\":\"order.updated\",\"data\":{\"ref_id\":\"W-1\\r\\n" + FORGED + "\\u001b[2J\\u0000\","
                                + "\"status\":\"success\"}}\r\n" + FORGED + "\u0000\u001b[31m")));
        assertThat(body.statusCode()).as(body.body()).isEqualTo(200);

        for (String name : List.of("a%00b.csv", "a" + crlf + ".csv", "%1b%5b31m.csv")) {
            HttpResponse<String> door = send(HttpRequest.newBuilder(URI.create(management("/batches?name=" + name)))
                    .header("X-Topup-Confirm", "order").header("Content-Type", "text/csv")
                    .POST(HttpRequest.BodyPublishers.ofString("ref_id,product_sku,customer_no\nB-1,FF100,31234567\n")));
            assertThat(door.statusCode()).as(name + ": " + door.body()).isEqualTo(400);
            assertThat(door.body()).doesNotContain("\n").contains("\"error\"");
        }
        // control characters in a header, which only a raw client sends
        String raw = rawRequest(run.env.get("TOPUP_MANAGEMENT_PORT"), "POST /batches?name=h.csv HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "X-Topup-Confirm: order\u001b[2J\u0000\r\nX-Note: a\rb\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        assertThat(raw).as(raw).matches("(?s)HTTP/1\\.1 4\\d\\d .*");
        // CSV cells with CR/LF and ESC: the rows are rejected or taken, the log stays one line per event
        HttpResponse<String> cells = send(HttpRequest.newBuilder(URI.create(management("/batches?name=cells.csv")))
                .header("X-Topup-Confirm", "order").header("Content-Type", "text/csv")
                .POST(HttpRequest.BodyPublishers.ofString("ref_id,product_sku,customer_no\n\"C-1\r\n" + FORGED
                        + "\",FF100,31234567\nC-2\u001b[31m,NOPE\u0000,31234568\n")));
        assertThat(cells.statusCode()).as(cells.body()).isIn(202, 400);
        // bodies over the limits, announced or chunked; a multipart request without a boundary
        byte[] big = new byte[2 * 1024 * 1024];
        java.util.Arrays.fill(big, (byte) 'a');
        HttpResponse<String> huge = send(HttpRequest.newBuilder(URI.create(management("/batches?name=big.csv")))
                .header("X-Topup-Confirm", "order").POST(HttpRequest.BodyPublishers.ofByteArray(big)));
        assertThat(huge.statusCode()).isEqualTo(413);
        HttpResponse<String> chunked = send(HttpRequest.newBuilder(URI.create(management("/batches?name=big.csv")))
                .header("X-Topup-Confirm", "order").POST(HttpRequest.BodyPublishers.ofInputStream(
                        () -> new java.io.ByteArrayInputStream(big))));
        assertThat(chunked.statusCode()).isEqualTo(413);
        HttpResponse<String> hugeWebhook = send(HttpRequest.newBuilder(URI.create(webhook("/webhook")))
                .POST(HttpRequest.BodyPublishers.ofByteArray(big)));
        assertThat(hugeWebhook.statusCode()).isEqualTo(413);
        HttpResponse<String> noBoundary = send(HttpRequest.newBuilder(URI.create(management("/batches?name=nb.csv")))
                .header("X-Topup-Confirm", "order").header("Content-Type", "multipart/form-data")
                .POST(HttpRequest.BodyPublishers.ofString("ref_id\n1\n")));
        assertThat(noBoundary.statusCode()).as(noBoundary.body()).isBetween(400, 499);

        Poll.until("the webhooks' summary", Duration.ofSeconds(60), run::output, o -> o.contains("settled nothing"),
                () -> "");
        assertCleanLog();
        assertThat(sandbox.ledger()).as("nothing of it ordered but cells.csv's valid rows").hasSizeLessThanOrEqualTo(1);
    }

    @Test
    void readme_door_commands_run_as_printed_with_curl_and_the_form_and_multipart_uploads_order_once() throws Exception {
        run.env.put("TOPUP_INTAKE_TOKEN", TOKEN);
        startAndAwaitReady();
        Path work = sampleFolder();
        List<String> printed = readmeDoorCommands().stream().filter(c -> c.contains("$TOPUP_INTAKE_TOKEN")).toList();
        assertThat(printed).as("docs/erp-doors.md's door commands with the token").hasSizeGreaterThanOrEqualTo(4);
        Map<String, String> env = Map.of("TOPUP_INTAKE_TOKEN", TOKEN);

        JsonNode taken = batchOf(curl(printed.get(0), work, env));
        long id = taken.get("batch").asLong();
        assertThat(taken.get("file").asText()).isEqualTo(SAMPLE);
        long accepted = taken.get("accepted").asLong();
        assertThat(accepted).isPositive();
        for (String command : printed.subList(1, printed.size())) {
            String out = curl(command.replace("/batches/7", "/batches/" + id), work, env);
            assertThat(out).as(command).isNotBlank().doesNotContain("Internal Server Error");
            if (command.contains("-F ")) {
                assertThat(batchOf(out).get("batch").asLong()).as("the multipart upload: the same batch")
                        .isEqualTo(id);
            }
        }
        Poll.until("the batch reported", Duration.ofSeconds(120), () -> progress(id).get("state").asText(),
                "reported"::equals, run::output);
        assertThat(sandbox.ledger()).as("the form-typed and the multipart upload ordered the file once").hasSize((int) accepted);

        // a workbook the same ways: form-typed, multipart (its file name), octet-stream; its bytes intact
        String door = management("/batches");
        for (String book : List.of("shop-1.xlsx", "shop-2.xlsx", "shop-3.xlsx")) {
            ExcelE2ETest.workbook(work.resolve(book));
        }
        String auth = "-H \"Authorization: Bearer $TOPUP_INTAKE_TOKEN\" ";
        long rows = batchOf(curl("curl -sS " + auth + "--data-binary @shop-1.xlsx '" + door + "?name=shop-1.xlsx'", work, env))
                .get("rows").asLong();
        assertThat(rows).as("the workbook's rows, read from the bytes sent").isPositive();
        JsonNode multipart = batchOf(curl("curl -sS " + auth + "-F file=@shop-2.xlsx " + door, work, env));
        assertThat(multipart.get("file").asText()).isEqualTo("shop-2.xlsx");
        assertThat(multipart.get("rows").asLong()).isEqualTo(rows);
        HttpResponse<String> octets = send(HttpRequest.newBuilder(URI.create(door + "?name=shop-3.xlsx"))
                .header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofFile(work.resolve("shop-3.xlsx"))));
        assertThat(octets.statusCode()).as(octets.body()).isEqualTo(202);
        assertThat(batchOf(octets.body()).get("rows").asLong()).isEqualTo(rows);
        assertCleanLog();
    }

    // ---- helpers

    private void startAndAwaitReady() throws IOException {
        run.start();
        StartupRefusalE2ETest.awaitOutput(run, "Ready:");
    }

    private String management(String path) {
        return "http://127.0.0.1:" + run.env.get("TOPUP_MANAGEMENT_PORT") + path;
    }

    private String webhook(String path) {
        return "http://127.0.0.1:" + run.env.get("TOPUP_WEBHOOK_PORT") + path;
    }

    private HttpRequest.Builder get(String uri) {
        return HttpRequest.newBuilder(URI.create(uri));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        if (run.env.containsKey("TOPUP_INTAKE_TOKEN")) {
            request.header("Authorization", "Bearer " + TOKEN);
        }
        return http.send(request.timeout(Duration.ofSeconds(90)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode progress(long id) throws IOException, InterruptedException {
        return new ObjectMapper().readTree(send(get(management("/batches/" + id))).body());
    }

    /** A door's answer naming a batch. */
    private JsonNode batchOf(String answer) throws IOException {
        assertThat(answer).as("the door's answer; the log:\n" + run.output()).contains("\"batch\"");
        return new ObjectMapper().readTree(answer);
    }

    private static void assertNotReflected(HttpHeaders headers) {
        assertThat(headers.firstValue("Access-Control-Allow-Origin")).as("a query or form value as a response header").isEmpty();
        assertThat(headers.firstValue("Set-Cookie")).as("a query or form value as a response header").isEmpty();
    }

    private static void assertSecurityHeaders(HttpHeaders headers, boolean data) {
        assertThat(headers.firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(headers.firstValue("Referrer-Policy")).hasValue("no-referrer");
        assertThat(headers.firstValue("Content-Security-Policy").orElse("")).contains("frame-ancestors 'none'");
        if (data) {
            assertThat(headers.firstValue("Cache-Control")).hasValue("no-store");
        }
    }

    /** The log: no raw CR, NUL or ESC, no forged line, no stack trace. */
    private void assertCleanLog() {
        String log = run.output();
        assertThat(log).as("raw control characters in the log").doesNotContain("\r", "\u0000", "\u001b");
        assertThat(log.lines().filter(l -> l.startsWith(FORGED))).as("a forged log line").isEmpty();
        assertThat(log).as("a stack trace in the log").doesNotContainPattern("\\n\\s+at [a-z]+\\.")
                .doesNotContain("Unhandled exception");
    }

    /** The sample batch, named as the page's commands name it, in a folder of its own. */
    private Path sampleFolder() throws IOException {
        Path work = Files.createDirectories(home.resolve("erp"));
        Files.copy(Path.of("inbox", SAMPLE), work.resolve(SAMPLE));
        return work;
    }

    /** The door's curl commands docs/erp-doors.md marks {@code tested: door}, continuation lines joined, on this run's port. */
    private List<String> readmeDoorCommands() throws IOException {
        List<String> commands = new ArrayList<>();
        StringBuilder current = null;
        for (String line : String.join("", TestedBlocks.of("docs/erp-doors.md", "door")).split("\n")) {
            if (current == null && line.startsWith("$ curl ")) {
                current = new StringBuilder(line.substring(2));
            } else if (current != null) {
                current.append(' ').append(line.strip());
            }
            if (current != null && !current.toString().endsWith("\\")) {
                commands.add(current.toString().replaceFirst("\\s+#.*$", "")
                        .replace("127.0.0.1:8086", "127.0.0.1:" + run.env.get("TOPUP_MANAGEMENT_PORT")));
                current = null;
            } else if (current != null) {
                current.setLength(current.length() - 1);
            }
        }
        return commands;
    }

    /** Runs one command line with bash and curl, in {@code folder}; returns its output, failing on a non-zero exit. */
    private static String curl(String command, Path folder, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", command).directory(folder.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("curl did not end: " + command);
        }
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(command + "\n" + text).isZero();
        return text;
    }

    /** One request written byte for byte (what no HTTP client library would send); returns the answer's head. */
    private static String rawRequest(String port, String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", Integer.parseInt(port))) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] head = in.readNBytes(200);
            return new String(head, StandardCharsets.ISO_8859_1);
        }
    }
}
