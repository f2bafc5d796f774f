/** Choosing in Ant Design's selects from a browser test the way a person does: open, wait, click, see it chosen. */
import type { Locator, Page } from 'playwright-core';

/**
 * Opens the select `field` (its combobox) and clicks the option titled `option` once the list has stopped
 * sliding open, then waits for the select to show the choice. A click while the list moves can land on the
 * option beside the one meant, or leave the list open over the next field, on a loaded machine.
 */
export async function chooseOption(page: Page, field: Locator, option: string): Promise<void> {
  await field.click();
  const item = page.locator(`.ant-select-item-option[title="${option}"]:visible`);
  await item.evaluate((el) =>
    Promise.allSettled(
      (el.closest('.ant-select-dropdown') ?? el).getAnimations({ subtree: true }).map((a) => a.finished),
    )
  );
  await item.click();
  const select = field.locator(
    `xpath=ancestor::*[contains(concat(' ', normalize-space(@class), ' '), ' ant-select ')][1]`,
  );
  await select.filter({ hasText: option }).waitFor();
}
