import UploadIcon from '@mui/icons-material/Upload';
import { Button } from '@mui/material';
import { useState } from 'react';
import { api } from '@/api/api';
import { useCan } from '@/auth/useCan';
import { ImportDialog } from '@/components/ImportDialog';
import { useAppDispatch } from '@/lib/store';
import { DataGrid } from '@mui/x-data-grid';
import { messages } from '@common/messages';
import { USER_IMPORT_FIELDS, type User } from '@common/schemas/users';
import { BulkBar } from '@/components/BulkBar';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { EditNotices } from '@/components/EditNotices';
import { Editors } from '@/components/Editors';
import { GridFrame, useGridColumns } from '@/components/GridFrame';
import { ExportMenu } from '@/components/ExportMenu';
import { ListPage } from '@/components/ListPage';
import { ListToolbar } from '@/components/ListToolbar';
import { QueryState } from '@/components/QueryState';
import { WithLastView } from '@/components/WithLastView';
import { useGridLayout } from '@/hooks/useGridLayout';
import { useReportedError } from '@/hooks/useReportedError';
import { useRowEditHint } from '@/hooks/useRowEditHint';
import { SetPasswordDialog } from './SetPasswordDialog';
import { useUserColumns } from './userColumns';
import { useListUsersQuery } from './users.api';
import { useUserGrid } from './useUserGrid';
import { undoable } from '@/i18n/useT';

const LABELS: Record<string, string> = { username: 'Username', email: 'Email' };

/** The users grid, with the row actions the user may take. */
function UserGrid({ users, isFetching }: { users: User[]; isFetching: boolean }) {
  const grid = useUserGrid(users);
  const { may, edit, apiRef, list } = grid;
  const pending = grid.removal.pending;
  const layout = useGridLayout(useGridColumns(useUserColumns(grid)));
  const rowEditHint = useRowEditHint(may.mayEdit);
  const mayImport = useCan('POST', '/api/users');
  const [importing, setImporting] = useState(false);
  const dispatch = useAppDispatch();
  const usersImport = {
    path: '/api/users/import',
    what: 'users',
    fields: USER_IMPORT_FIELDS,
    onImported: () => dispatch(api.util.invalidateTags([{ type: 'User', id: 'LIST' }])),
  };
  return (
    <>
      <ListToolbar
        search={{ value: list.search.typed, onChange: list.search.type }}
        grid="users"
        chooser={layout.chooser}
      >
        {mayImport && (
          <Button startIcon={<UploadIcon />} onClick={() => setImporting(true)}>
            Import
          </Button>
        )}
        <ExportMenu
          path="/api/users/export"
          what="users"
          params={list.exportParams}
          columns={list.shownColumns}
        />
      </ListToolbar>
      {grid.refusal.alert}
      {grid.bulk.mayDelete && (
        <BulkBar selection={grid.bulk.selection} total={grid.bulk.selection.count} what="users">
          <Button color="error" onClick={grid.bulk.ask}>
            Delete
          </Button>
        </BulkBar>
      )}
      <Editors editors={edit.editors} nameOf={grid.nameOf} />
      <EditNotices edit={edit} nameOf={grid.nameOf} labelOf={(field) => LABELS[field] ?? field} />
      <GridFrame apiRef={apiRef} label="Users" height={560}>
        <DataGrid
          apiRef={apiRef}
          aria-label="Users"
          {...edit.gridProps}
          {...list.gridProps}
          {...layout.gridProps}
          {...(grid.bulk.mayDelete ? grid.bulk.selection.gridProps : {})}
          isRowSelectable={({ row }) => grid.bulk.isSelectable(row)}
          columns={layout.columns}
          loading={isFetching}
          isCellEditable={() => may.mayEdit}
          slotProps={rowEditHint.slotProps}
          disableRowSelectionOnClick
        />
      </GridFrame>
      {rowEditHint.hint}
      <ConfirmDialog
        {...grid.removal.dialog}
        title="Delete user"
        message={
          pending && pending._id === grid.myId
            ? messages.users.deleteOwn(pending.username)
            : undoable(`Delete ${pending?.username ?? ''}?`, grid.may.mayRestore)
        }
        editors={pending && edit.editors[pending._id]}
      />
      <ConfirmDialog
        open={grid.bulk.asking}
        title="Delete users"
        message={grid.bulk.question}
        onConfirm={() => void grid.bulk.remove()}
        onCancel={grid.bulk.cancel}
      />
      {importing && (
        <ImportDialog
          target={usersImport}
          explanation="A CSV file whose first row names its columns: Username, Email, Password (for new users) and Roles (names, separated by commas). A column _id changes the username and email of those users."
          onClose={() => setImporting(false)}
        />
      )}
      <ConfirmDialog
        {...grid.factorsReset.dialog}
        title="Reset second factors"
        confirmLabel="Reset"
        message={messages.users.resetFactors(grid.factorsReset.pending?.username ?? '')}
      />
      {grid.password.for && (
        <SetPasswordDialog user={grid.password.for} onClose={grid.password.close} />
      )}
    </>
  );
}

/** `/users`: the users, edited inline row by row, deleted after confirmation. */
export function UsersPage() {
  return (
    <ListPage
      title="Users"
      read={{ path: '/api/users', what: 'reading the users' }}
      add={{ label: 'Add User', to: '/users/add', path: '/api/users' }}
    >
      {(mayAdd) => (
        <WithLastView grid="users">
          <UserList mayAdd={mayAdd} />
        </WithLastView>
      )}
    </ListPage>
  );
}

/** The users through the shared loading, error and empty states. */
function UserList({ mayAdd }: { mayAdd: boolean }) {
  const usersQuery = useListUsersQuery();
  useReportedError(messages.users.fetchContext, usersQuery.error);
  // The first load shows the shared bar; a refetch, the grid's own overlay.
  return (
    <QueryState
      query={usersQuery}
      what="users"
      empty="No users yet"
      emptyAction={mayAdd ? { label: 'Add one', to: '/users/add' } : undefined}
    >
      {(users) => <UserGrid users={users} isFetching={usersQuery.isFetching} />}
    </QueryState>
  );
}
