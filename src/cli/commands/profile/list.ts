import { defineCommand } from '../../command.js';

export const command = defineCommand({
  summary: 'List profiles (tokens are never shown)',
  examples: ['books profile list', 'books profile list --json'],
  async run(ctx) {
    const store = await ctx.configStore();
    const current = store.get('currentProfile');
    const rows = Object.entries(store.get('profiles')).map(([name, p]) => ({ name, ...p }));
    await ctx.output.table(
      [
        { header: '', value: (r) => (r.name === current ? '*' : '') },
        { header: 'Profile', value: (r) => r.name },
        { header: 'Base URL', value: (r) => r.baseUrl ?? '(local platform)' },
        { header: 'Workspace', value: (r) => r.workspace ?? '' },
        { header: 'Entity', value: (r) => r.entity ?? '' },
      ],
      rows,
      // The token is never printed, not even in JSON.
      rows.map(({ token: _token, ...rest }) => ({ ...rest, current: rest.name === current })),
    );
  },
});
