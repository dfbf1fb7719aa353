import { enterpriseButton, enterprisePage, open, type WalkStep } from './walk.js';

/**
 * What the open-source build of Unleash 7.6.5's UI keeps for Unleash Enterprise, shown by the UI
 * itself: each is checked on its page, so a page that stops being gated shows up here. Groups and
 * single sign-on work here through the API (README, "The admin UI and people").
 */
export const GATED_STEPS: WalkStep[] = [
  { page: 'Projects', action: 'create a project', gated: (walk) => enterpriseButton(walk, '/projects', (page) => page.getByTestId('NAVIGATE_TO_CREATE_PROJECT')) },
  { page: 'Project settings → General', action: "edit or delete the project", gated: (walk) => enterprisePage(walk, '/projects/default/settings') },
  { page: 'Project settings → Change requests', action: 'configure change requests', gated: (walk) => enterprisePage(walk, '/projects/default/settings/change-requests') },
  { page: 'Project settings → Actions', action: 'configure actions', gated: (walk) => enterprisePage(walk, '/projects/default/settings/actions') },
  { page: 'Admin → Groups', action: 'create a group', gated: (walk) => enterprisePage(walk, '/admin/groups') },
  { page: 'Admin → Roles', action: 'create a custom role', gated: (walk) => enterprisePage(walk, '/admin/roles') },
  { page: 'Admin → Service accounts', action: 'create a service account', gated: (walk) => enterprisePage(walk, '/admin/service-accounts') },
  { page: 'Admin → Single sign-on', action: 'configure OpenID Connect', gated: (walk) => enterprisePage(walk, '/admin/auth') },
  { page: 'Admin → Banners', action: 'create a banner', gated: (walk) => enterprisePage(walk, '/admin/banners') },
  { page: 'Admin → Login history', action: 'read the login history', gated: (walk) => enterprisePage(walk, '/admin/logins') },
  { page: 'Admin → Users → Inactive', action: 'clean up inactive users automatically', gated: (walk) => enterprisePage(walk, '/admin/users/inactive') },
  { page: 'Release templates', action: 'create a release template', gated: (walk) => enterprisePage(walk, '/release-templates') },
  {
    page: 'Environments', action: 'create, edit or delete an environment',
    gated: async (walk) => {
      // The open-source UI has no menu entry for it; by its address it shows the "not toggled on" page.
      await open(walk, '/environments', walk.page.getByText("Ooops. That's a page we haven't toggled on yet."));
      return '/environments: not in the open-source menu; by its address, "Ooops. That\'s a page we haven\'t toggled on yet." (the list is read-only in project settings)';
    },
  },
];
