package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.topupbatch.testing.Poll;

/**
 * The dashboard with authentication on (a token and a login set, docs/security.md), in headless
 * chromium: the operator logs in once with HTTP basic, and the page, its refresh, a button and an
 * upload all work with the login the browser keeps; without it the page is not shown.
 */
class DashboardLoginE2ETest {

    private static final String TOKEN = "dash-token-3e9f";
    private static final String USER = "operator";
    private static final String PASSWORD = "pw-4b7c-secret";

    // slow enough that the batch is still running when its Hold button is pressed
    @RegisterExtension
    final ProductFixture product = DashboardE2ETest.busyProduct();
    @RegisterExtension
    final HeadlessChromium chromium = new HeadlessChromium();
    private final JarRun run = product.run();
    private final ChromeDriver browser = chromium.start();

    @Test
    void logged_in_the_dashboard_shows_a_button_holds_and_an_upload_orders() throws Exception {
        run.env.put("TOPUP_INTAKE_TOKEN", TOKEN);
        run.env.put("TOPUP_MANAGEMENT_USER", USER);
        run.env.put("TOPUP_MANAGEMENT_PASSWORD", PASSWORD);
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no\n");
        for (int i = 1; i <= 200; i++) {
            csv.append("LG-").append(i).append(",STEAM45K,buyer").append(i).append("@example.com\n");
        }
        run.drop("reseller-login.csv", csv.toString());
        run.start();
        String port = run.env.get("TOPUP_MANAGEMENT_PORT");
        String page = "http://127.0.0.1:" + port + "/";
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        Poll.until("the management port answering", Duration.ofSeconds(120), () -> {
            try {
                return http.send(HttpRequest.newBuilder(URI.create(page)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            } catch (java.io.IOException notYet) {
                return 0;
            }
        }, status -> status == 401, run::output);
        // the guard answers from the moment the port listens, the dashboard's routes a moment later: a
        // browser opening the page before them would keep a 404 page (it does not refresh)
        String login = "Basic " + java.util.Base64.getEncoder().encodeToString(
                (USER + ":" + PASSWORD).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Poll.until("the dashboard's page served", Duration.ofSeconds(120), () -> {
            try {
                return http.send(HttpRequest.newBuilder(URI.create(page)).header("Authorization", login).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode();
            } catch (java.io.IOException notYet) {
                return 0;
            }
        }, status -> status == 200, run::output);

        // without the login the browser is shown no dashboard
        browser.get(page);
        assertThat(browser.findElements(By.id("batches"))).as("the dashboard without a login").isEmpty();

        // the login once, as a person answers the browser's question; the page is then opened as usual
        browser.get("http://" + USER + ":" + PASSWORD + "@127.0.0.1:" + port + "/");
        browser.get(page);
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(120), Duration.ofMillis(300));
        wait.ignoring(StaleElementReferenceException.class).withMessage(() -> "no batch on the dashboard: "
                        + browser.getPageSource() + "\n" + run.output())
                .until(b -> b.findElements(By.cssSelector("tr.batch")).stream()
                        .anyMatch(r -> r.getText().contains("reseller-login.csv")));
        assertThat(browser.findElement(By.id("balance")).getText()).matches("Rp \\d{1,3}(\\.\\d{3})*");

        // a button: Hold, confirmed, holds the batch (the page's own request, the login sent along)
        wait.ignoring(StaleElementReferenceException.class).until(b -> {
            WebElement hold = b.findElements(By.cssSelector("tr.batch button.action-hold")).stream().findFirst().orElse(null);
            if (hold == null) {
                return false;
            }
            hold.click();
            return true;
        });
        browser.switchTo().alert().accept();
        wait.withMessage(() -> "no answer to Hold: " + browser.findElement(By.id("notice")).getText())
                .until(b -> b.findElement(By.id("notice")).getText().contains("is held:"));
        wait.ignoring(StaleElementReferenceException.class).until(b -> b.findElements(By.cssSelector("tr.batch td.state"))
                .stream().anyMatch(td -> td.getText().equals("held")));

        // an upload: previewed, then ordered by its button
        Path file = product.home().resolve("upload-login.csv");
        Files.writeString(file, "ref_id,product_sku,customer_no\nUL-1,FF100,31234567\nUL-2,FF100,31234568\n");
        browser.findElement(By.id("upload-file")).sendKeys(file.toAbsolutePath().toString());
        wait.withMessage(() -> "no preview: " + browser.findElement(By.id("preview")).getText())
                .until(b -> b.findElement(By.id("preview")).getText().contains("to order"));
        browser.findElement(By.id("upload-order")).click();
        wait.withMessage(() -> "no answer to the order: " + browser.findElement(By.id("notice")).getText())
                .until(b -> b.findElement(By.id("notice")).getText().contains("upload-login.csv"));
        assertThat(browser.findElement(By.id("notice")).getText())
                .matches("Batch \\d+ \\(upload-login.csv\\) taken: 2 rows to order, 0 rejected\\.");
        wait.ignoring(StaleElementReferenceException.class).until(b -> b.findElements(By.cssSelector("tr.batch")).stream()
                .anyMatch(r -> r.getText().contains("upload-login.csv")));
        assertThat(run.output()).doesNotContain(PASSWORD).doesNotContain(TOKEN);
    }
}
