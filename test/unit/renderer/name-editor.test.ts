// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import InstrumentNameEditor from '../../../src/renderer/src/features/instruments/InstrumentNameEditor.vue';
import { INSTRUMENT_NAME_MAX_LENGTH } from '../../../src/shared/service/limits';

function mountEditor(props: Record<string, unknown> = {}) {
  return mount(InstrumentNameEditor, { props: { name: 'North fence', ...props }, attachTo: document.body });
}

describe('rename in place', () => {
  it('opens a prefilled field, validates as you type, saves on Enter', async () => {
    const wrapper = mountEditor();
    await wrapper.get('button.button-small').trigger('click');
    const input = wrapper.get('input');
    expect((input.element as HTMLInputElement).value).toBe('North fence');

    await input.setValue('   ');
    expect(wrapper.text()).toContain('The name cannot be empty.');
    expect(input.attributes('aria-invalid')).toBe('true');
    await input.trigger('keydown', { key: 'Enter' });
    expect(wrapper.emitted('save')).toBeUndefined();

    await input.setValue('x'.repeat(INSTRUMENT_NAME_MAX_LENGTH + 1));
    expect(wrapper.text()).toContain(`Keep the name to ${INSTRUMENT_NAME_MAX_LENGTH} characters or fewer.`);

    await input.setValue('  Gate 3 ');
    expect(wrapper.find('.field-error').exists()).toBe(false);
    await input.trigger('keydown', { key: 'Enter' });
    expect(wrapper.emitted('save')).toEqual([['Gate 3']]);
    expect(wrapper.find('input').exists()).toBe(false);
    wrapper.unmount();
  });

  it('cancels on Esc without saving', async () => {
    const wrapper = mountEditor();
    await wrapper.get('button').trigger('click');
    await wrapper.get('input').setValue('Something else');
    await wrapper.get('input').trigger('keydown', { key: 'Escape' });
    expect(wrapper.find('input').exists()).toBe(false);
    expect(wrapper.text()).toContain('North fence');
    expect(wrapper.emitted('save')).toBeUndefined();
    wrapper.unmount();
  });

  it('shows saving, the failure reason, and the reason it is disabled', async () => {
    const saving = mountEditor({ saving: true });
    expect(saving.text()).toContain('Saving…');
    saving.unmount();

    const failed = mountEditor({ error: 'The service refused the name.' });
    expect(failed.text()).toContain('Could not rename: The service refused the name.');
    failed.unmount();

    const reason = 'This key cannot rename instruments: it lacks instruments:write.';
    const blocked = mountEditor({ disabledReason: reason });
    expect(blocked.text()).toContain(reason);
    const button = blocked.get('button.button-small');
    expect(button.attributes('disabled')).toBeDefined();
    await button.trigger('click');
    expect(blocked.find('input').exists()).toBe(false);
    blocked.unmount();
  });
});
