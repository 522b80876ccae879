-- Drives Neovim's built-in LSP client (Neovim 0.7+) against torch-tidy --lsp,
-- as a user would: open a file, wait for its diagnostics, edit the buffer
-- without saving, apply a quick fix. Run by neovim_test.py, which passes a
-- JSON object in $TORCH_TIDY_NVIM_TEST:
--   server, file, root: the command's binary, the file to open, its project
--   expected: the {line, check} of the file's findings (0-based lines)
--   bug_after: the 0-based line after which an unsaved edit adds a bug
--   bug_text: that line's text; fix_line: the 0-based line of the finding
--   whose quick fix is applied; fix_check: its check
--   wait_first, wait_edit: seconds; result: where to write what happened
-- Every step waits for its condition, and on a timeout the results say
-- which step and what the diagnostics were.

local args = vim.fn.json_decode(os.getenv('TORCH_TIDY_NVIM_TEST'))
local results = { steps = {}, progress = {} }
local client_id

local function write_results()
  local f = assert(io.open(args.result, 'w'))
  f:write(vim.fn.json_encode(results))
  f:close()
end

-- {line, check} pairs, by line then check.
local function sorted(list)
  table.sort(list, function(a, b)
    if a[1] ~= b[1] then return a[1] < b[1] end
    return a[2] < b[2]
  end)
  return list
end

local function findings(bufnr)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(found, { d.lnum, lsp.code or d.code or '' })
  end
  return sorted(found)
end

local function same(a, b)
  return vim.fn.json_encode(a) == vim.fn.json_encode(b)
end

-- Waits for predicate(); records the step, and stops the test on a timeout.
local function step(name, seconds, predicate)
  local start = vim.loop.hrtime()
  local ok = vim.wait(seconds * 1000, predicate, 100)
  table.insert(results.steps, {
    name = name, ok = ok, seconds = (vim.loop.hrtime() - start) / 1e9,
    diagnostics = findings(0),
  })
  if not ok then
    error('step "' .. name .. '" timed out after ' .. seconds .. ' s', 0)
  end
end

local function shifted(expected, after, by)
  local out = {}
  for _, f in ipairs(expected) do
    table.insert(out, { f[1] > after and f[1] + by or f[1], f[2] })
  end
  return out
end

local function with(list, item)
  local out = vim.deepcopy(list)
  table.insert(out, item)
  return sorted(out)
end

local function without(list, item)
  local out = {}
  for _, f in ipairs(list) do
    if not same(f, item) then table.insert(out, f) end
  end
  return out
end

local function run()
  -- Progress: the client's handler, recording what the server reports.
  local progress = vim.lsp.handlers['$/progress']
  vim.lsp.handlers['$/progress'] = function(err, result, ctx, config)
    table.insert(results.progress, result.value.kind)
    return progress(err, result, ctx, config)
  end

  client_id = vim.lsp.start_client({
    name = 'torch-tidy',
    cmd = { args.server, '--lsp' },
    root_dir = args.root,
    on_exit = function(code) results.exit_code = code end,
  })
  vim.cmd('edit ' .. vim.fn.fnameescape(args.file))
  vim.bo.filetype = 'cpp'
  vim.lsp.buf_attach_client(0, client_id)

  step('open: the diagnostics of the file', args.wait_first, function()
    return same(findings(0), args.expected)
  end)

  -- An unsaved edit that adds a bug, then its removal.
  vim.api.nvim_buf_set_lines(0, args.bug_after + 1, args.bug_after + 1, false,
                             { args.bug_text })
  local with_bug = with(shifted(args.expected, args.bug_after, 1),
                        { args.bug_after + 1, 'device-discarded-to' })
  step('edit: the new bug is found', args.wait_edit, function()
    return same(findings(0), with_bug)
  end)
  vim.api.nvim_buf_set_lines(0, args.bug_after + 1, args.bug_after + 2, false, {})
  step('edit: the bug is gone again', args.wait_edit, function()
    return same(findings(0), args.expected)
  end)

  -- The quick fix, chosen from the client's menu of code actions.
  vim.api.nvim_win_set_cursor(0, { args.fix_line + 1, 0 })
  local before = vim.api.nvim_buf_get_lines(0, args.fix_line, args.fix_line + 1, false)[1]
  results.offered = {}
  vim.ui.select = function(items, opts, on_choice)
    local chosen
    for _, item in ipairs(items) do
      local title = opts.format_item(item)
      table.insert(results.offered, title)
      if not chosen and vim.startswith(title, args.fix_check .. ': ') then
        chosen = item
      end
    end
    on_choice(chosen)
  end
  vim.lsp.buf.code_action()
  step('fix: the buffer changes', args.wait_edit, function()
    local now = vim.api.nvim_buf_get_lines(0, args.fix_line, args.fix_line + 1, false)[1]
    return now ~= before
  end)
  results.fixed_line = vim.api.nvim_buf_get_lines(0, args.fix_line, args.fix_line + 1, false)[1]
  step('fix: the finding is gone', args.wait_edit, function()
    return same(findings(0), without(args.expected, { args.fix_line, args.fix_check }))
  end)
  results.modified = vim.bo.modified

  vim.lsp.stop_client(client_id)
  step('stop: the server exits', args.wait_edit, function()
    return results.exit_code ~= nil
  end)
end

local ok, err = xpcall(run, debug.traceback)
results.ok = ok
results.error = ok and nil or tostring(err)
write_results()
vim.cmd('qall!')
