package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.topupbatch.docs.DashboardScreenshot;
import org.topupbatch.testing.BuiltJar;
import org.topupbatch.testing.Poll;

/**
 * The dashboard in a real headless browser (Debian's chromium with its chromedriver) while a
 * batch runs against a slow sandbox: what a person sees is the batch's name, its progress and the
 * balance as of the latest order's answer, rupiah written the Indonesian way; the first paint
 * already shows the data. The screenshot is kept as target/dashboard.png, and is the docs' picture of the
 * dashboard when {@code -Ddocs.screenshots=true} ({@link DashboardScreenshot}).
 */
class DashboardE2ETest {

    private static final int ROWS = 200;
    private static final String INTAKE_BALANCE = "Rp 10.000.000";

    @RegisterExtension
    final ProductFixture product = busyProduct();
    @RegisterExtension
    final HeadlessChromium chromium = new HeadlessChromium();
    private final JarRun run = product.run();
    private final ChromeDriver browser = chromium.start();

    /**
     * The product on its own (embedded) sandbox, slow enough that a batch of 200 is still running while the
     * page is looked at and its buttons are pressed.
     */
    static ProductFixture busyProduct() {
        return ProductFixture.withoutSandbox().env("TOPUP_SANDBOX_LATENCY", "400ms").env("TOPUP_SANDBOX_SETTLE_DELAY", "30s")
                .env("TOPUP_SUBMIT_CONCURRENCY", "1");
    }

    @Test
    void a_running_batch_shows_its_name_progress_and_the_balance() throws Exception {
        run.env.put("TOPUP_NODE_NAME", "dash-1");
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no\n");
        for (int i = 1; i <= ROWS; i++) {
            csv.append("DB-").append(i).append(",STEAM45K,buyer").append(i).append("@example.com\n");
        }
        run.drop("reseller-march.csv", csv.toString());
        run.start();

        String page = "http://127.0.0.1:" + run.env.get("TOPUP_MANAGEMENT_PORT") + "/";
        // the page as served already holds the data: the batch is in it before any script runs
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        String served = Poll.until("the batch in the page as served", Duration.ofSeconds(120), () -> {
            try {
                return http.send(HttpRequest.newBuilder(URI.create(page)).build(), HttpResponse.BodyHandlers.ofString()).body();
            } catch (java.io.IOException notYet) {
                return ""; // the page is served once the start-up checks passed; until then the port refuses
            }
        }, body -> body.contains("\"file\":\"reseller-march.csv\""), run::output);
        assertThat(served).doesNotContain("/*INITIAL-VIEW*/");

        // first paint: with dashboard.json unreachable, what the browser shows came with the page
        browser.executeCdpCommand("Network.enable", Map.of());
        browser.executeCdpCommand("Network.setBlockedURLs", Map.of("urls", List.of("*dashboard.json*")));
        browser.get(page);
        String firstBalance = browser.findElement(By.id("balance")).getText();
        String firstBatches = browser.findElement(By.id("batches")).getText();
        String firstUpdated = browser.findElement(By.id("updated")).getText();
        System.out.println("DASHBOARD FIRST PAINT (dashboard.json blocked): balance " + firstBalance + "; updated "
                + firstUpdated + "; batches '" + firstBatches + "'");
        assertThat(firstBalance).as("the balance at first paint").matches("Rp \\d{1,3}(\\.\\d{3})*");
        assertThat(firstBatches).as("the batches at first paint").contains("reseller-march.csv");
        assertThat(firstUpdated).as("the reading's time at first paint").matches("\\d{1,2}[:.]\\d{2}[:.]\\d{2}.*");
        browser.executeCdpCommand("Network.setBlockedURLs", Map.of("urls", List.of()));

        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(120), Duration.ofMillis(300));
        // while the batch runs, the balance follows the create-order answers (balance_after), not
        // only intake and the report: it drops below what intake read with no extra provider call
        // the rows are redrawn every 2 s: a row looked at while it is replaced is looked at again, and what
        // is checked of it below is read in that same look (its text, progress and amount charged)
        String[] batch = wait.ignoring(StaleElementReferenceException.class).withMessage(() -> "no running batch with a balance below intake's on the dashboard;"
                        + " balance " + browser.findElement(By.id("balance")).getText() + "; output:\n" + run.output())
                .until(b -> b.findElements(By.cssSelector("tr.batch")).stream()
                        .filter(r -> r.getText().contains("reseller-march.csv")
                                && r.findElement(By.cssSelector("td.state")).getText().matches("queued|submitting|tracking"))
                        .filter(r -> !r.findElement(By.cssSelector("td.progress")).getText().startsWith("0 /"))
                        .filter(r -> !b.findElement(By.id("balance")).getText().equals(INTAKE_BALANCE))
                        .findFirst().map(r -> new String[] {r.getText(), r.findElement(By.cssSelector("td.progress")).getText(),
                                r.findElement(By.cssSelector("td.charged")).getText()}).orElse(null));
        String progress = batch[1];
        String balance = browser.findElement(By.id("balance")).getText();
        String balanceAge = browser.findElement(By.id("balance-age")).getText();
        String rate = browser.findElement(By.id("rate")).getText();
        Path shot = screenshot();
        System.out.println("DASHBOARD (screenshot " + shot + "): batch row '" + batch[0] + "'; balance "
                + balance + " (" + balanceAge + "); rate " + rate + "; pending " + browser.findElement(By.id("pending")).getText());

        assertThat(progress).as("done / rows (percent)").matches("\\d+ / " + ROWS + " \\(\\d+%\\)");
        assertThat(balance).as("the balance after some orders, Indonesian style").matches("Rp \\d\\.\\d{3}\\.\\d{3}");
        assertThat(Long.parseLong(balance.substring(3).replace(".", ""))).isLessThan(10_000_000L);
        assertThat(balanceAge).as("the balance's age").matches("as of \\d+ s ago");
        assertThat(rate).matches("\\d+ / \\d+");
        assertThat(browser.findElement(By.id("node")).getText()).as("the node in the header").isEqualTo("dash-1 (single)");
        assertThat(batch[2]).matches("Rp \\d{1,3}(\\.\\d{3})*");
        assertThat(Files.size(shot)).isPositive();

        operatorButtons(wait, page);
        uploadWithPreview(wait, page);
        lastReconciliation(wait);
    }

    /**
     * A file chosen in the page is checked first (its rejected rows with their reasons, cost, balance)
     * and ordered only by the "Order N rows for Rp X" button; a POST without the page's confirmation,
     * as another site's page would send it, orders nothing.
     */
    private void uploadWithPreview(WebDriverWait wait, String page) throws Exception {
        Path file = product.home().resolve("upload-evening.csv");
        Files.writeString(file, "ref_id,product_sku,customer_no\nUP-1,FF100,31234567\nUP-2,FF100,31234568\n"
                + "UP-3,NOPE1,31234569\n");
        HttpResponse<String> forged = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(page
                + "batches?name=forged.csv")).POST(HttpRequest.BodyPublishers.ofString(Files.readString(file))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(forged.statusCode()).as(forged.body()).isEqualTo(403);

        browser.findElement(By.id("upload-file")).sendKeys(file.toAbsolutePath().toString());
        wait.withMessage(() -> "no preview: " + browser.findElement(By.id("preview")).getText())
                .until(b -> b.findElement(By.id("preview")).getText().contains("to order"));
        String preview = browser.findElement(By.id("preview")).getText();
        String rejected = browser.findElement(By.id("preview-rejected")).getText();
        WebElement order = browser.findElement(By.id("upload-order"));
        System.out.println("DASHBOARD UPLOAD PREVIEW: " + preview + " | " + rejected + " | button '" + order.getText() + "'");
        assertThat(preview).startsWith("upload-evening.csv: 3 rows, 2 to order, 1 rejected; cost Rp ");
        assertThat(rejected).contains("line 4, ref_id UP-3: product_sku NOPE1 is not in the price list");
        assertThat(order.getText()).matches("Order 2 rows for Rp \\d{1,3}(\\.\\d{3})*");
        assertThat(run.output()).as("nothing taken before the button").doesNotContain("Taking batch upload-evening.csv");

        order.click();
        wait.withMessage(() -> "no answer to the order: " + browser.findElement(By.id("notice")).getText())
                .until(b -> b.findElement(By.id("notice")).getText().contains("upload-evening.csv"));
        assertThat(browser.findElement(By.id("notice")).getText()).matches("Batch \\d+ \\(upload-evening.csv\\) taken: 2 rows"
                + " to order, 1 rejected\\.");
        wait.ignoring(StaleElementReferenceException.class).until(b -> b.findElements(By.cssSelector("tr.batch")).stream()
                .anyMatch(r -> r.getText().contains("upload-evening.csv")));
    }

    /** {@code reconcile DAY} run beside the service: its result shows in a tile within seconds. */
    private void lastReconciliation(WebDriverWait wait) throws Exception {
        assertThat(browser.findElement(By.id("reconcile")).getText()).isEqualTo("none yet");
        String day = java.time.LocalDate.now(java.time.ZoneId.of("Asia/Jakarta")).toString();
        assertThat(product.command("reconcile", day)).as(product.commandOutput()).isIn(0, 2);
        wait.withMessage(() -> "no reconciliation tile; command output:\n" + product.commandOutput())
                .until(b -> b.findElement(By.id("reconcile")).getText().startsWith(day + ": "));
        String tile = browser.findElement(By.id("reconcile")).getText();
        String detail = browser.findElement(By.id("reconcile-detail")).getText();
        System.out.println("DASHBOARD RECONCILIATION: " + tile + "; " + detail);
        assertThat(tile).matches(day + ": (all matched|\\d+ exceptions?)");
        assertThat(detail).contains("unexplained ");
    }

    /**
     * The hold and resume buttons: each asks first (a dismissed question does nothing), then acts;
     * a request that does not carry the page's confirmation, as another site's page would send it,
     * changes nothing.
     */
    private void operatorButtons(WebDriverWait wait, String page) throws Exception {
        clickOnBatchRow(wait, "hold");
        browser.switchTo().alert().dismiss();
        Thread.sleep(500);
        assertThat(browser.findElement(By.id("notice")).getText()).as("a dismissed question does nothing").isEmpty();
        HttpResponse<String> forged = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(page + "batches/1/cancel"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(forged.statusCode()).as(forged.body()).isEqualTo(403);

        clickOnBatchRow(wait, "hold");
        browser.switchTo().alert().accept();
        wait.until(b -> b.findElement(By.id("notice")).getText().contains("is held:"));
        wait.ignoring(StaleElementReferenceException.class).until(b -> b.findElements(By.cssSelector("tr.batch td.state")).stream()
                .anyMatch(td -> td.getText().equals("held")));
        System.out.println("DASHBOARD after Hold: " + browser.findElement(By.id("notice")).getText());
        clickOnBatchRow(wait, "resume");
        browser.switchTo().alert().accept();
        wait.until(b -> b.findElement(By.id("notice")).getText().contains("goes on:"));
        wait.ignoring(StaleElementReferenceException.class).until(b -> b.findElements(By.cssSelector("tr.batch td.state")).stream()
                .noneMatch(td -> td.getText().equals("held")));
        assertThat(run.output()).doesNotContain("was cancelled");
    }

    private void clickOnBatchRow(WebDriverWait wait, String action) {
        wait.ignoring(StaleElementReferenceException.class).until(b -> {
            WebElement button = b.findElements(By.cssSelector("tr.batch button.action-" + action)).stream().findFirst().orElse(null);
            if (button == null) {
                return false;
            }
            button.click();
            return true;
        });
    }

    /**
     * The page at the docs' picture's size (the browser's own window leaves a viewport of another height),
     * kept as target/dashboard.png and, when asked, as the docs' picture ({@link DashboardScreenshot}).
     */
    private Path screenshot() throws Exception {
        browser.executeCdpCommand("Emulation.setDeviceMetricsOverride", Map.of("width", DashboardScreenshot.WIDTH,
                "height", DashboardScreenshot.HEIGHT, "deviceScaleFactor", 1, "mobile", false));
        try {
            return DashboardScreenshot.keep(browser.getScreenshotAs(OutputType.FILE).toPath(), BuiltJar.path());
        } finally {
            browser.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
        }
    }
}
