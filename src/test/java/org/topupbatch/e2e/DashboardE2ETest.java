package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.topupbatch.testing.BuiltJar;

/**
 * The dashboard in a real headless browser (Debian's chromium with its chromedriver) while a
 * batch runs against a slow sandbox: what a person sees is the batch's name, its progress and the
 * balance, rupiah written the Indonesian way. The screenshot is kept as target/dashboard.png.
 */
class DashboardE2ETest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final int ROWS = 40;

    @TempDir
    Path home;

    private JarRun run;
    private ChromeDriver browser;

    @AfterEach
    void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (run != null) {
            run.kill();
        }
    }

    @Test
    void a_running_batch_shows_its_name_progress_and_the_balance() throws Exception {
        browser = headlessChromium();
        run = new JarRun(home);
        // slow enough that the batch is still running while the page is looked at
        run.env.put("TOPUP_SANDBOX_LATENCY", "400ms");
        run.env.put("TOPUP_SANDBOX_SETTLE_DELAY", "30s");
        run.env.put("TOPUP_SUBMIT_CONCURRENCY", "1");
        run.env.put("TOPUP_NODE_NAME", "dash-1");
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no\n");
        for (int i = 1; i <= ROWS; i++) {
            csv.append("DB-").append(i).append(",STEAM45K,buyer").append(i).append("@example.com\n");
        }
        run.drop("reseller-march.csv", csv.toString());
        run.start();

        String page = "http://127.0.0.1:" + run.env.get("TOPUP_MANAGEMENT_PORT") + "/";
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(120), Duration.ofMillis(300));
        // the page is served once the start-up checks passed; until then the port refuses
        wait.ignoring(WebDriverException.class).withMessage(() -> "no dashboard at " + page + "; output:\n" + run.output())
                .until(b -> {
                    b.get(page);
                    return b.findElement(By.id("balance"));
                });
        WebElement batch = wait.withMessage(() -> "no running batch on the dashboard; output:\n" + run.output())
                .until(b -> b.findElements(By.cssSelector("tr.batch")).stream()
                        .filter(r -> r.getText().contains("reseller-march.csv")
                                && r.findElement(By.cssSelector("td.state")).getText().matches("queued|submitting|tracking"))
                        .filter(r -> !r.findElement(By.cssSelector("td.progress")).getText().startsWith("0 /"))
                        .findFirst().orElse(null));
        String progress = batch.findElement(By.cssSelector("td.progress")).getText();
        String balance = browser.findElement(By.id("balance")).getText();
        String rate = browser.findElement(By.id("rate")).getText();
        Path shot = screenshot();
        System.out.println("DASHBOARD (screenshot " + shot + "): batch row '" + batch.getText() + "'; balance "
                + balance + "; rate " + rate + "; pending " + browser.findElement(By.id("pending")).getText());

        assertThat(progress).as("done / rows (percent)").matches("\\d+ / " + ROWS + " \\(\\d+%\\)");
        assertThat(balance).as("the balance read at intake, Indonesian style").isEqualTo("Rp 10.000.000");
        assertThat(rate).matches("\\d+ / \\d+");
        assertThat(browser.findElement(By.id("node")).getText()).as("the node in the header").isEqualTo("dash-1 (single)");
        assertThat(batch.findElement(By.cssSelector("td.charged")).getText()).matches("Rp \\d{1,3}(\\.\\d{3})*");
        assertThat(Files.size(shot)).isPositive();
    }

    /** Chromium as Debian installs it; Selenium Manager is never asked to download anything. */
    private static ChromeDriver headlessChromium() throws Exception {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new AssertionError("the dashboard test needs Debian's chromium and chromedriver (" + CHROMIUM + ", "
                    + CHROMEDRIVER + "): install them with 'apt-get install -y chromium chromium-driver' (.ci/run does)");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--window-size=1280,720", "--user-data-dir=" + Files.createTempDirectory("dashboard-chromium"));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    /** Kept beside the built jar (target/), where CI collects test artifacts. */
    private Path screenshot() throws Exception {
        Path taken = browser.getScreenshotAs(OutputType.FILE).toPath();
        Path kept = BuiltJar.path().toAbsolutePath().getParent().resolve("dashboard.png");
        return Files.copy(taken, kept, StandardCopyOption.REPLACE_EXISTING);
    }
}
